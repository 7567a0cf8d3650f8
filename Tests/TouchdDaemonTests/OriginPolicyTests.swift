import Testing

@testable import TouchdDaemon

/// `--websocket-origin` and `--websocket`: the allow list compares origins as browsers serialize
/// them (RFC 6454 §6.2), and malformed values are refused by name.
struct OriginPolicyTests {
  @Test("Origins compare in browsers' form: case, default ports and a trailing slash do not matter; the port does")
  func normalization() throws {
    let policy = try OriginPolicy(["HTTP://Kiosk.Local:80/", "https://panel.example:8443", "null"])
    #expect(policy.allowed == ["http://kiosk.local", "https://panel.example:8443", "null"])
    #expect(policy.allows("http://kiosk.local"))
    #expect(policy.allows("http://kiosk.local:80"))
    #expect(!policy.allows("https://kiosk.local"))
    #expect(!policy.allows("http://kiosk.local:8080"))
    #expect(policy.allows("https://panel.example:8443"))
    #expect(!policy.allows("https://panel.example"))
    #expect(policy.allows("null"))
    #expect(!policy.allows("http://evil.example"))
    #expect(!policy.allows("garbage"))
    // A program sends no Origin: allowed whatever the list.
    #expect(policy.allows(nil))
    #expect(OriginPolicy().allows(nil))
    #expect(!OriginPolicy().allows("http://localhost"))
    #expect(try OriginPolicy(["*"]).allows("http://anything.example:1"))
    #expect(try OriginPolicy.normalize("http://[::1]:8080") == "http://[::1]:8080")
    #expect(try OriginPolicy.normalize("http://[::1]") == "http://[::1]")
  }

  @Test("A value that is not an origin is refused with the option's name and the reason")
  func malformed() {
    let cases: [(String, String)] = [
      ("localhost:8080", "an origin is scheme://host[:port], or * or null"),
      ("http://kiosk.local/app", "an origin has a host and no path, query or user"),
      ("http://", "an origin is scheme://host[:port], or * or null"),
      ("http://user@kiosk.local", "an origin has a host and no path, query or user"),
      ("http://kiosk.local:99999", "the port is not a number from 1 to 65535"),
      ("ht tp://kiosk.local", "the scheme is not valid"),
    ]
    for (origin, reason) in cases {
      #expect(throws: OriginError(origin: origin, reason: reason)) { try OriginPolicy.normalize(origin) }
    }
    #expect(
      OriginError(origin: "x", reason: "an origin is scheme://host[:port], or * or null").description
        == "--websocket-origin 'x': an origin is scheme://host[:port], or * or null")
  }

  @Test("--websocket takes HOST:PORT with an IPv6 host in brackets; the options reach DaemonOptions")
  func options() throws {
    #expect(WebSocketConfiguration.parse("127.0.0.1:8765")! == ("127.0.0.1", 8765))
    #expect(WebSocketConfiguration.parse("[::1]:8765")! == ("::1", 8765))
    #expect(WebSocketConfiguration.parse("localhost:0")! == ("localhost", 0))
    for bad in ["8765", "127.0.0.1", ":8765", "127.0.0.1:65536", "[::1:8765", "host:port"] {
      #expect(WebSocketConfiguration.parse(bad) == nil, "\(bad)")
    }
    let invocation = try DaemonOptions.parse([
      "--scene", "s.yaml", "--websocket", "[::1]:9000", "--websocket-origin", "http://a.example",
      "--websocket-origin=*", "--websocket-allow-remote",
    ])
    guard case .run(let options) = invocation else { throw OriginError(origin: "", reason: "not run") }
    #expect(options.webSocketAddress == "[::1]:9000")
    #expect(options.webSocketOrigins == ["http://a.example", "*"])
    #expect(options.webSocketAllowRemote)
    #expect(throws: DaemonOptions.UsageError.self) { try DaemonOptions.parse(["--scene", "s", "--websocket", "9000"]) }
    #expect(
      throws: DaemonOptions.UsageError(
        description: "--websocket-origin 'localhost': an origin is scheme://host[:port], or * or null")
    ) { try DaemonOptions.parse(["--scene", "s", "--websocket-origin", "localhost"]) }
  }
}
