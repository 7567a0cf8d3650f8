// swift-tools-version: 6.1
// touchd's benchmarks (docs/performance.md): a separate package, so that the main build never
// pulls the benchmark library. Run `scripts/bench.sh`, or from this directory
// `swift package benchmark`.
import PackageDescription

let benchmark: Target.PluginUsage = .plugin(name: "BenchmarkPlugin", package: "benchmark")

let package = Package(
  name: "touchd-benchmarks",
  platforms: [.macOS(.v14)],
  dependencies: [
    .package(name: "touchd", path: ".."),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
  ],
  targets: [
    // Recordings and scenes the benchmarks run on.
    .target(
      name: "BenchSupport",
      dependencies: [
        .product(name: "TouchdInput", package: "touchd"),
        .product(name: "TouchdTestKit", package: "touchd"),
        .product(name: "TouchdScene", package: "touchd"),
        .product(name: "TouchdDevices", package: "touchd"),
      ]
    ),
    // The heap's bytes in use (glibc's mallinfo2), for the scene memory benchmark.
    .target(name: "CHeap"),
    // The benchmarks' work as a plain executable, for callgrind (docs/performance.md).
    .executableTarget(
      name: "Profile",
      dependencies: ["BenchSupport"]
    ),
    // 1 and 2: recording parsing and frame assembly.
    .executableTarget(
      name: "Input",
      dependencies: [
        "BenchSupport", .product(name: "Benchmark", package: "benchmark"),
        .product(name: "TouchdInput", package: "touchd"),
      ],
      path: "Benchmarks/Input",
      plugins: [benchmark]
    ),
    // 3 and 4: hit-testing and the full pipeline per frame.
    .executableTarget(
      name: "Delivery",
      dependencies: [
        "BenchSupport", "CHeap", .product(name: "Benchmark", package: "benchmark"),
        .product(name: "TouchdInput", package: "touchd"),
        .product(name: "TouchDelivery", package: "touchd"),
        .product(name: "TouchdScene", package: "touchd"),
      ],
      path: "Benchmarks/Delivery",
      plugins: [benchmark]
    ),
    // 5: the socket server's fan-out.
    .executableTarget(
      name: "FanOut",
      dependencies: [
        "BenchSupport", .product(name: "Benchmark", package: "benchmark"),
        .product(name: "TouchdDaemon", package: "touchd"),
        .product(name: "TouchdInput", package: "touchd"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Benchmarks/FanOut",
      plugins: [benchmark]
    ),
    // 8: latency, a frame to a subscriber through touchd's pieces and through a minimal C reader;
    // and the input hop, the input thread against a Dispatch read source (InputHop.swift).
    .target(name: "CForward"),
    .executableTarget(
      name: "Latency",
      dependencies: [
        "BenchSupport", "CForward", .product(name: "Benchmark", package: "benchmark"),
        .product(name: "TouchdDaemon", package: "touchd"),
        .product(name: "TouchdDevices", package: "touchd"),
        .product(name: "TouchdScene", package: "touchd"),
        .product(name: "TouchdInput", package: "touchd"),
        .product(name: "TouchDelivery", package: "touchd"),
        .product(name: "TouchdTestKit", package: "touchd"),
        .product(name: "Logging", package: "swift-log"),
      ],
      path: "Benchmarks/Latency",
      plugins: [benchmark]
    ),
  ]
)
