import ExportParser
import Foundation

/// export.zip: the central directory, the export entry found by content, inflated and read.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    FuzzEntry.readZip(input)
    return 0
}

#if !FUZZING
    /// Replay: runs each file given as an argument through `fuzz`, as the fuzzer would (a crash
    /// reproduces under a debugger, or on a toolchain without libFuzzer).
    @main
    enum Replay {
        static func main() throws {
            for path in CommandLine.arguments.dropFirst() {
                let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
                _ = bytes.withUnsafeBufferPointer { fuzz($0.baseAddress ?? UnsafePointer(bitPattern: 1)!, $0.count) }
                print("\(path): ok")
            }
        }
    }
#endif
