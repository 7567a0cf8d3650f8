// swift-tools-version: 6.1
// touchd: a Linux touchscreen daemon with UIKit's touch-delivery semantics.
//
// One target per layer; each depends only on targets listed above it (docs/architecture.md):
//   C          CTouchd (libevdev, libudev, <linux/input.h>); CForwardShortcut (portable C);
//              CForwardPath (on both: the forwarding shortcut's turn on the input thread)
//   system     TouchdSystem: the one system-call seam (on CTouchd)
//   core       TouchdCore: a touch and a key between input and delivery (no dependency)
//   protocol   TouchdProtocol: the socket's JSON, command fields, pipeline messages (no dependency)
//   input      TouchdInput: events, recordings, frame assembly (TouchdCore, CForwardShortcut, Yams)
//   devices    TouchdDevices: Linux devices (TouchdInput, TouchdSystem, the C targets)
//   delivery   TouchDelivery: UIKit's model (TouchdCore alone: the standard library)
//   scene      TouchdScene (TouchdInput, TouchDelivery, TouchdProtocol, Yams); TouchdRender: pictures of scenes
//   daemon     TouchdDaemon (TouchdDevices, TouchdScene, TouchdSystem, SwiftNIO, swift-metrics,
//              swift-prometheus) -> touchd, touchctl
//   client     TouchdClient (TouchdProtocol, SwiftNIO): the socket's Swift client for apps
// A touch enters in TouchdDevices (live) or TouchdInput (recorded), is hit-tested in
// TouchDelivery, and leaves as a message built in TouchdScene and sent by TouchdDaemon's server.
import PackageDescription

let strict: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
  name: "touchd",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "touchd", targets: ["touchd"]),
    .executable(name: "touchctl", targets: ["touchctl"]),
    .library(name: "TouchDelivery", targets: ["TouchDelivery"]),
    .library(name: "TouchdScene", targets: ["TouchdScene"]),
    .library(name: "TouchdProtocol", targets: ["TouchdProtocol"]),
    // For the separate benchmark package (Benchmarks/), which depends on this one by path.
    .library(name: "TouchdInput", targets: ["TouchdInput"]),
    .library(name: "TouchdTestKit", targets: ["TouchdTestKit"]),
    .library(name: "TouchdDaemon", targets: ["TouchdDaemon"]),
    // Linux devices, for the benchmarks' forwarding path (ForwardPath).
    .library(name: "TouchdDevices", targets: ["TouchdDevices"]),
    // The Swift client of the daemon's socket, for apps: no dependency on the pipeline's targets.
    .library(name: "TouchdClient", targets: ["TouchdClient"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
    // Metrics: swift-metrics' API, swift-prometheus' registry and text format (Metrics/).
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
  ],
  targets: [
    // The C shim: libevdev, libudev and <linux/input.h>, plus a few inline helpers. (systemd's
    // notification and socket-activation protocols are spoken in Swift: TouchdDaemon/Systemd.)
    .systemLibrary(
      name: "CTouchd",
      pkgConfig: "libevdev",
      providers: [.apt(["libevdev-dev", "libudev-dev"])]
    ),
    // The forwarding shortcut's composer in plain C, no system dependency (ForwardShortcut arms it;
    // the input thread runs it through CForwardPath). docs/forward.md, "Frames and time".
    .target(name: "CForwardShortcut"),
    // The input thread's turn before the pipeline's queue: read a forwarded device's frame through
    // libevdev, compose it (CForwardShortcut), write it to uinput. Linux only.
    .target(name: "CForwardPath", dependencies: ["CTouchd", "CForwardShortcut"]),
    // The system-call seam: every system call of touchd's own Swift code, through one EINTR loop with
    // errno sorted as SwiftNIO sorts it, replaceable in tests (SystemCalls). Glibc and CTouchd only.
    .target(name: "TouchdSystem", dependencies: ["CTouchd"], swiftSettings: strict),
    // The pure core: what a touch and a key are between input and delivery (TouchPhase, TouchID,
    // Timestamp, Contact, TouchFrame; KeyPhase, KeyChange, KeyFrame). No dependency at all, so
    // TouchDelivery builds with the standard library alone.
    .target(name: "TouchdCore", swiftSettings: strict),
    // The socket protocol's language: one JSON writer (JSONLineWriter, JSONFormat, JSONValue), one
    // strict reader (StrictJSON, CommandFields), the errors every command speaks (ProtocolError), and
    // the pipeline's messages (Messages/Pipeline: action, touches, scroll, control, presses, idle,
    // trace), each declared once with its encoder and decoder. No dependency at all: the daemon,
    // touchctl and the Swift client share it.
    .target(name: "TouchdProtocol", swiftSettings: strict),
    // Where a touch enters: kernel events, recordings, frame assembly with touch identity. Swift,
    // plus the portable C composer of the forwarding shortcut. Re-exports TouchdCore.
    .target(
      name: "TouchdInput",
      dependencies: ["TouchdCore", "CForwardShortcut", .product(name: "Yams", package: "Yams")],
      swiftSettings: strict
    ),
    // Real devices on Linux: udev discovery and hotplug, libevdev reading and resync, the devices'
    // epoll set, uinput's virtual touchscreens and the forwarding path (ForwardPath, over CForwardPath).
    .target(
      name: "TouchdDevices",
      dependencies: ["CTouchd", "CForwardPath", "CForwardShortcut", "TouchdInput", "TouchdSystem"],
      swiftSettings: strict
    ),
    // Where a touch is hit-tested and delivered: UIKit's event model and gesture recognizers. Pure
    // Swift on the core alone: its dependency closure is the standard library.
    .target(
      name: "TouchDelivery",
      dependencies: ["TouchdCore"],
      swiftSettings: strict
    ),
    // Scene files: windows, views and recognizers from YAML; the pipeline that publishes the
    // protocol's messages (built from its types in MessageBuilding.swift). Re-exports TouchdProtocol.
    .target(
      name: "TouchdScene",
      dependencies: ["TouchdInput", "TouchDelivery", "TouchdProtocol", .product(name: "Yams", package: "Yams")],
      swiftSettings: strict
    ),
    // Pictures of scenes: view frames, touch paths and actions as SVG (`touchctl render`).
    .target(
      name: "TouchdRender",
      dependencies: ["TouchdScene", "TouchdInput", "TouchDelivery", "TouchdProtocol"],
      swiftSettings: strict
    ),
    // Test helpers: scripted fingers that synthesize recordings; where tests find the repository's
    // and ../shared's data and the built binaries (TestPaths), which fail a test when missing.
    .target(
      name: "TouchdTestKit",
      dependencies: ["TouchdInput"],
      swiftSettings: strict
    ),
    // The daemon's parts: Daemon/ (one file per concern: devices, frames, replay, reload, commands,
    // status), the run loop, the socket server, forwarding, latency, systemd integration, logging.
    .target(
      name: "TouchdDaemon",
      dependencies: [
        "TouchdDevices", "TouchdLines", "TouchdProtocol", "TouchdScene", "TouchdSystem",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        // The WebSocket endpoint for browser kiosks (Server/WebSocket): SwiftNIO's own HTTP/1 and
        // WebSocket handlers.
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOWebSocket", package: "swift-nio"),
        // Metrics (Metrics/): swift-metrics' handles over a swift-prometheus registry.
        .product(name: "CoreMetrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      swiftSettings: strict
    ),
    // The daemon's entry point. Its command line is parsed by TouchdDaemon's DaemonOptions: no
    // argument-parsing library stays resident in the daemon (docs/performance.md, memory).
    .executableTarget(
      name: "touchd",
      dependencies: ["TouchdDaemon", "TouchdSystem", .product(name: "Logging", package: "swift-log")],
      swiftSettings: strict
    ),
    // Line framing over SwiftNIO (LineDecoder): the Swift client's reading of the daemon's replies
    // and the daemon's of speech-dispatcher's SSIP replies.
    .target(
      name: "TouchdLines", dependencies: [.product(name: "NIOCore", package: "swift-nio")], swiftSettings: strict),
    // The socket protocol's client (docs/integration.md): typed messages (the pipeline's are
    // TouchdProtocol's), async commands, reconnection. The protocol, SwiftNIO and Foundation's JSON
    // coders: none of the daemon's targets.
    .target(
      name: "TouchdClient",
      dependencies: [
        "TouchdProtocol", "TouchdLines",
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      swiftSettings: strict
    ),
    // A blocking line connection to the daemon's socket, speaking the protocol's commands: touchctl's
    // (an app's is TouchdClient, asynchronous). Its system calls go through TouchdSystem.
    .target(name: "TouchdConnection", dependencies: ["TouchdProtocol", "TouchdSystem"], swiftSettings: strict),
    .executableTarget(
      name: "touchctl",
      dependencies: [
        "TouchdConnection", "TouchdDevices", "TouchdProtocol", "TouchdScene", "TouchdRender", "TouchdSystem",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: strict
    ),
    .testTarget(
      name: "TouchdInputTests",
      dependencies: ["TouchdInput", "TouchdTestKit"],
      resources: [.copy("Fixtures")],
      swiftSettings: strict
    ),
    .testTarget(
      name: "TouchdSystemTests",
      dependencies: ["TouchdSystem"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "TouchdDevicesTests",
      dependencies: ["TouchdDevices", "TouchdInput", "TouchdSystem"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "TouchdProtocolTests",
      dependencies: ["TouchdProtocol", "TouchdTestKit"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "TouchDeliveryTests",
      dependencies: ["TouchDelivery", "TouchdInput", "TouchdTestKit"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "TouchdSceneTests",
      dependencies: ["TouchdScene", "TouchDelivery", "TouchdInput", "TouchdTestKit"],
      exclude: ["Golden", "Fixtures"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "TouchdDaemonTests",
      dependencies: [
        "TouchdDaemon", "TouchdProtocol", "TouchdTestKit", .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
      ],
      swiftSettings: strict
    ),
    // Against the real daemon: depends on `touchd` so that the binary is built.
    .testTarget(
      name: "TouchdClientTests",
      dependencies: ["TouchdClient", "TouchdTestKit", "touchd"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "TouchdRenderTests",
      dependencies: ["TouchdRender", "TouchdScene", "TouchdInput", "TouchdTestKit"],
      exclude: ["Fixtures"],
      swiftSettings: strict
    ),
    .testTarget(
      name: "TouchdTestKitTests",
      dependencies: ["TouchdTestKit", "TouchdInput"],
      swiftSettings: strict
    ),
    // touchctl's subcommands through the built binary: depends on `touchctl` so that it is built.
    .testTarget(
      name: "touchctlTests",
      dependencies: ["touchctl", "TouchdScene", "TouchDelivery", "TouchdInput", "TouchdTestKit"],
      swiftSettings: strict
    ),
  ]
)
