package producer

import "time"

// spin is the contract's injected work: it busy-waits on the monotonic clock
// until d has passed and returns how long it really spun.
func spin(d time.Duration) time.Duration {
	start := time.Now()
	for {
		if spun := time.Since(start); spun >= d {
			return spun
		}
	}
}
