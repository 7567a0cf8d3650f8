/// libFuzzer's driver (compiler-rt's FuzzerInterface.h): runs the fuzzing loop with `callback` as
/// the target, taking libFuzzer's usual flags from `argv`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
  _ argc: UnsafeMutablePointer<CInt>,
  _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
  _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// A fuzz target's entry point. SwiftPM links an executable target with `main` defined as
/// `<Target>_main`, which each target defines (`@_cdecl`) as a call to this: libFuzzer's driver on
/// the target's `LLVMFuzzerTestOneInput`.
public func runFuzzer(
  _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
  _ target: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
  var argc = argc
  var argv = argv
  return LLVMFuzzerRunDriver(&argc, &argv, target)
}

/// The input as bytes (an empty buffer for a null pointer).
public func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> UnsafeBufferPointer<UInt8> {
  UnsafeBufferPointer(start: data, count: data == nil ? 0 : size)
}

/// Stops the run with a message libFuzzer reports as a crash: for an input that broke a property
/// (an error without its place, a result that does not round-trip).
public func fuzzFailure(_ message: String, file: StaticString = #fileID, line: UInt = #line) -> Never {
  fatalError(message, file: file, line: line)
}
