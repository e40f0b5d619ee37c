import CFuzzerDriver

#if canImport(Glibc)
import Glibc
#endif

/// The signature libFuzzer calls for every input.
public typealias FuzzCallback = @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt

public enum FuzzDriver {
    /// Runs libFuzzer with this process's arguments and exits with its status; never returns.
    public static func run(_ callback: FuzzCallback) -> Never {
        var argc = CommandLine.argc
        var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, callback))
    }

    /// The input as an array, the shape every parser under test takes.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
}

/// A property every input must keep. Failing prints what broke and traps, which libFuzzer records as a crash
/// with the input that caused it.
public func require(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
    file: StaticString = #fileID, line: UInt = #line
) {
    guard !condition() else { return }
    // Written straight to file descriptor 2: buffered stdout would die with the process in abort().
    let text = "FUZZ PROPERTY FAILED at \(file):\(line): \(message())\n"
    _ = text.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    abort()
}
