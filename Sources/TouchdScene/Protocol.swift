// The socket protocol's JSON writer and strict reader, its fields and its errors
// (Sources/TouchdProtocol), with the pipeline's message types, are re-exported: every user of the
// scene sees them as its own, as TouchdInput re-exports TouchdCore.
@_exported import TouchdProtocol
