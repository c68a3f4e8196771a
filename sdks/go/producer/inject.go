package producer

import "time"

// spin is the contract's injected work: it busy-waits on the monotonic clock
// until d has passed since the batch's start and returns how long that really
// took, the call included.
func spin(start time.Time, d time.Duration) time.Duration {
	for {
		if spun := time.Since(start); spun >= d {
			return spun
		}
	}
}
