// The socket protocol's types (Sources/TouchdProtocol) are re-exported: a client's messages are
// the protocol's, and a reply reads as its typed body (``TouchdClient/Reply/decode(_:)``:
// ``StatusReply``, ``SceneReply``, ``CalibrateReply``, …) without a second import, as TouchdScene
// re-exports them for the daemon.
@_exported import TouchdProtocol
