package main

import "runtime"

func runtimeCPUs() int { return runtime.GOMAXPROCS(0) }
