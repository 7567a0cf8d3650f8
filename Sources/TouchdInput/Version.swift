/// touchd's release version: the one place it is written. `touchd --version` and
/// `touchctl --version` print it, and scripts read it from this file (`scripts/version.sh`). (The
/// `hello` message's `version` is the protocol's.) It lives in the lowest Swift layer, which both
/// executables import.
public enum TouchdVersion {
  /// The release, semantic versioning.
  public static let current = "0.9.0"
}
