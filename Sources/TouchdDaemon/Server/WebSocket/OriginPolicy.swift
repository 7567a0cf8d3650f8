/// The web pages allowed to open the WebSocket endpoint, by the `Origin` header browsers send
/// with every WebSocket handshake (RFC 6455 §4.1 item 8, §10.2): `--websocket-origin`.
///
/// A handshake without `Origin` comes from a program, not a page (browsers always send it), and is
/// allowed: such a client could as well open the Unix socket. A page's origin must be listed, so
/// that a site opened in the kiosk's browser cannot drive touchd from the user's machine. `*`
/// allows every page.
public struct OriginPolicy: Sendable, Equatable {
  /// The listed origins, in the form browsers send them (``normalize(_:)``); `*` for any.
  public private(set) var allowed: [String] = []

  public init() {}

  /// Allows each of `origins`, which must be `*`, `null` (pages of `file:` URLs and sandboxed
  /// frames) or `scheme://host[:port]`.
  public init(_ origins: [String]) throws(OriginError) {
    allowed = try origins.map { origin throws(OriginError) in try Self.normalize(origin) }
  }

  /// Whether a handshake with this `Origin` header (nil: none) may open a connection.
  public func allows(_ origin: String?) -> Bool {
    guard let origin else { return true }
    guard let normalized = try? Self.normalize(origin) else { return false }
    return allowed.contains("*") || allowed.contains(normalized)
  }

  /// An origin as browsers serialize it (RFC 6454 §6.2): the scheme and host in lower case, the
  /// scheme's default port (80 for http, 443 for https) left out, no path or trailing slash.
  public static func normalize(_ origin: String) throws(OriginError) -> String {
    if origin == "*" || origin == "null" { return origin }
    var text = origin.lowercased()
    if text.hasSuffix("/") { text.removeLast() }
    guard let separator = text.range(of: "://") else {
      throw OriginError(origin: origin, reason: "an origin is scheme://host[:port], or * or null")
    }
    let scheme = text[..<separator.lowerBound]
    var authority = text[separator.upperBound...]
    guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else {
      throw OriginError(origin: origin, reason: "the scheme is not valid")
    }
    guard !authority.isEmpty, !authority.contains(where: { "/?#@ ".contains($0) }) else {
      throw OriginError(origin: origin, reason: "an origin has a host and no path, query or user")
    }
    if let colon = authority.lastIndex(of: ":"), !authority[colon...].contains("]") {
      let port = authority[authority.index(after: colon)...]
      guard let number = Int(port), (1...65535).contains(number) else {
        throw OriginError(origin: origin, reason: "the port is not a number from 1 to 65535")
      }
      if (scheme == "http" && number == 80) || (scheme == "https" && number == 443) {
        authority = authority[..<colon]
      }
    }
    return "\(scheme)://\(authority)"
  }
}

/// A `--websocket-origin` that is not an origin.
public struct OriginError: Error, Equatable, Sendable, CustomStringConvertible {
  public var origin: String
  public var reason: String
  public var description: String { "--websocket-origin '\(origin)': \(reason)" }
}
