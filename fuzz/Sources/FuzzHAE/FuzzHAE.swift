import ExportParser
import Foundation

/// Health Auto Export JSON read with yajl's chunks cut at fuzzer-chosen offsets (the input's
/// first bytes, `FuzzEntry.splitInput`), and again in one piece: the two reads must agree.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = UnsafeRawBufferPointer(start: data, count: size)
    let (body, splits) = FuzzEntry.splitInput(input)
    FuzzEntry.readHAE(body, splitAt: splits)
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
