import Foundation

/// Detects what a file is from its first bytes, never from its name: users rename files, and
/// the Health app localises them (`vienti.zip`, `导出.xml`).
public enum InputDetector {
    public static func detect(path: String) throws -> InputFormat {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDir) {
                throw InputError(file: path, message: isDir.boolValue ? "is a directory, not an export file" : "cannot be opened for reading")
            }
            throw InputError(file: path, message: "no such file")
        }
        defer { try? handle.close() }
        let head = (try? handle.read(upToCount: 4096)) ?? Data()
        guard let format = detect(head: head) else {
            if head.isEmpty { throw InputError(file: path, message: "the file is empty") }
            if head.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
                throw InputError(file: path, message: "the file holds only white space")
            }
            throw InputError(file: path, message: "not an Apple Health export (export.zip or export.xml) nor Health Auto Export JSON: the content starts with neither a ZIP signature, '<' nor '{' / '['")
        }
        return format
    }

    /// The format for the first bytes of a file, or nil when it is none of ours.
    public static func detect(head: Data) -> InputFormat? {
        let bytes = [UInt8](head.prefix(4096))
        if bytes.count >= 4, bytes[0] == 0x50, bytes[1] == 0x4B, bytes[2] == 0x03 || bytes[2] == 0x05, bytes[3] == 0x04 || bytes[3] == 0x06 {
            return .appleZip
        }
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 } // UTF-8 BOM
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case UInt8(ascii: "<"): return .appleXML
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .hae
        default: return nil
        }
    }
}
