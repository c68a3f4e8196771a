module mintbench/sdks/go

go 1.26.0

require (
	github.com/google/uuid v1.6.0
	github.com/zeebo/xxh3 v1.1.0
	golang.org/x/perf v0.0.0-20260908200009-22c9c6c9d4da
)

require (
	github.com/aclements/go-moremath v0.0.0-20210112150236-f10218a38794 // indirect
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	golang.org/x/sys v0.48.0 // indirect
)
