import CTouchd
import TouchdInput

/// libevdev's version string, proof the shim links.
public var libevdevLinked: Bool { libevdev_new() != nil }
