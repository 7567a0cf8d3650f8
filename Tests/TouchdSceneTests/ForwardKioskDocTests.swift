import Foundation
import Testing
import TouchdTestKit

@testable import TouchdScene

/// docs/integration.md's browser kiosk is the forwarding kiosk example's files, as the VM check
/// web-kiosk-kwin installs them (scripts/vm/web-kiosk.sh): the unit and the launcher the docs show
/// are the files, the docs install each file where the check does, and the start scene is a valid
/// scene forwarding to the virtual touchscreen the page asks for.
@Suite("docs/integration.md: the browser kiosk is examples/forward-kiosk")
struct ForwardKioskDocTests {
  static let example = "examples/forward-kiosk"

  func text(_ relative: String) throws -> String {
    try String(contentsOfFile: TestPaths.repository(relative), encoding: .utf8)
  }

  /// The fenced block of `language` that follows the first line of `docs` containing `marker`.
  func block(after marker: String, language: String, in docs: String) -> String? {
    guard let start = docs.range(of: marker),
      let open = docs.range(of: "```\(language)\n", range: start.upperBound..<docs.endIndex),
      let close = docs.range(of: "\n```\n", range: open.upperBound..<docs.endIndex)
    else { return nil }
    return String(docs[open.upperBound..<close.lowerBound]) + "\n"
  }

  @Test("The display unit and the browser launcher the docs show are the example's files")
  func docsShowTheFiles() throws {
    let docs = try text("docs/integration.md")
    let unit = try text("\(Self.example)/touchd-web-kiosk.service")
    let browser = try text("\(Self.example)/kiosk-browser")
    #expect(block(after: "The display unit,", language: "ini", in: docs) == unit)
    #expect(block(after: "The browser, `examples/forward-kiosk/kiosk-browser`", language: "sh", in: docs) == browser)
    // The launcher's switches are the kiosk's; the VM adds its own through KIOSK_BROWSER_FLAGS.
    #expect(browser.contains("$KIOSK_BROWSER_FLAGS \"${KIOSK_URL:-"))
    #expect(
      unit.contains("ExecStart=/usr/bin/kwin_wayland --drm")
        && unit.contains("--exit-with-session /usr/local/bin/kiosk-browser"))
  }

  @Test("The docs install each file where the VM check installs it")
  func docsInstallAsTheCheck() throws {
    let docs = try text("docs/integration.md")
    let check = try text("scripts/vm/web-kiosk.sh")
    let installs: [(file: String, docs: String, check: String)] = [
      (
        "kiosk-browser", "install -m 0755 examples/forward-kiosk/kiosk-browser /usr/local/bin/",
        #"install -m 0755 "$WK_EXAMPLE/kiosk-browser" /usr/local/bin/"#
      ),
      (
        "touchd-web-kiosk.service",
        "install -m 0644 examples/forward-kiosk/touchd-web-kiosk.service /etc/systemd/system/",
        #"install -m 0644 "$WK_EXAMPLE/$KIOSK_UNIT.service" /etc/systemd/system/"#
      ),
      (
        "start-scene.yaml", "cp examples/forward-kiosk/start-scene.yaml /etc/touchd/scene.yaml",
        #"cp "$WK_SCENE" /etc/touchd/scene.yaml"#
      ),
      (
        "kwinrulesrc", "examples/forward-kiosk/kwinrulesrc /var/lib/kiosk/.config/",
        #"kiosk_prepare "$WK_EXAMPLE/kwinrulesrc""#
      ),
    ]
    for install in installs {
      #expect(docs.contains(install.docs), "docs: \(install.file)")
      #expect(check.contains(install.check), "check: \(install.file)")
    }
    #expect(check.contains(#"WK_SCENE="$WK_EXAMPLE/start-scene.yaml""#))
    #expect(check.contains("WK_UNIT=touchd-web-kiosk "))
    #expect(docs.contains("systemctl enable --now touchd-web-kiosk.service"))
    #expect(docs.contains(#"TOUCHD_OPTIONS="--websocket-origin http://127.0.0.1:8080""#))
    #expect(check.contains(#"echo "TOUCHD_OPTIONS=\"--websocket-origin $WK_ORIGIN\"" >/etc/default/touchd"#))
    #expect(check.contains(#"WK_ORIGIN="http://127.0.0.1:$WK_PORT""#) && check.contains("WK_PORT=8080"))
  }

  @Test("The start scene forwards its one window to the touchscreen the page names")
  func startScene() throws {
    let scene = try Scene.load(path: TestPaths.repository("\(Self.example)/start-scene.yaml"))
    #expect(scene.windows.map(\.id) == ["main"])
    #expect(scene.windows[0].forward?.name == "Kiosk touchscreen")
    #expect(scene.windows[0].views.isEmpty)
    #expect(try text("\(Self.example)/kiosk.js").contains("params.get('forward') || 'Kiosk touchscreen'"))
  }
}
