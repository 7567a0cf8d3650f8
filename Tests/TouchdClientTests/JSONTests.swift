import Foundation
import Testing

@testable import TouchdClient

struct JSONTests {
  @Test func placeholder() {}
}
