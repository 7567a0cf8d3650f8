// swift-tools-version: 6.1
// libFuzzer targets for touchd's parsers and protocol (issue #20, docs/reliability.md). Built only by
// scripts/fuzz.sh, with `-sanitize=fuzzer,address` and `-parse-as-library`: each target defines
// `LLVMFuzzerTestOneInput` and libFuzzer supplies `main`. Not part of the main package's build.
import PackageDescription

let fuzzSettings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
  name: "touchd-fuzz",
  dependencies: [.package(name: "touchd", path: "..")],
  targets: [
    // libFuzzer's driver, shared by every target, and the checks the recording targets share.
    .target(
      name: "FuzzSupport",
      dependencies: [.product(name: "TouchdInput", package: "touchd")],
      swiftSettings: fuzzSettings
    ),
    // The evemu parser: recording text in, a recording or an error naming its line out.
    .executableTarget(
      name: "FuzzEvemu",
      dependencies: ["FuzzSupport", .product(name: "TouchdInput", package: "touchd")],
      swiftSettings: fuzzSettings
    ),
    // The libinput-record parser (YAML): text in, a recording or an error naming its place out.
    .executableTarget(
      name: "FuzzLibinputRecord",
      dependencies: ["FuzzSupport", .product(name: "TouchdInput", package: "touchd")],
      swiftSettings: fuzzSettings
    ),
    // The scene loader and validator: YAML in, a scene or diagnostics with file:line:column out.
    .executableTarget(
      name: "FuzzScene",
      dependencies: [
        "FuzzSupport",
        .product(name: "TouchdScene", package: "touchd"),
        .product(name: "TouchDelivery", package: "touchd"),
        .product(name: "TouchdInput", package: "touchd"),
      ],
      swiftSettings: fuzzSettings
    ),
    // The socket protocol: one client line in, one reply out, against a live SceneRuntime.
    .executableTarget(
      name: "FuzzProtocol",
      dependencies: [
        "FuzzSupport",
        .product(name: "TouchdScene", package: "touchd"),
        .product(name: "TouchdDaemon", package: "touchd"),
      ],
      swiftSettings: fuzzSettings
    ),
    // The frame assembler: arbitrary event sequences against each device kind's capabilities.
    .executableTarget(
      name: "FuzzFrameAssembler",
      dependencies: ["FuzzSupport", .product(name: "TouchdInput", package: "touchd")],
      swiftSettings: fuzzSettings
    ),
  ]
)
