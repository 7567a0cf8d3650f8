// TouchdInput hands out the pure core's types (a frame assembler returns `TouchFrame`s of
// `Contact`s stamped with `Timestamp`s), so it re-exports them, as SwiftNIO's umbrella module
// re-exports NIOCore: a file that reads devices or recordings needs one import. The delivery layer
// imports TouchdCore alone (docs/architecture.md).
@_exported import TouchdCore
