print("deferral-bench: benchmarks are not built yet")
