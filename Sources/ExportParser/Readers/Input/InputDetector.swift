import Foundation

/// Detects what a file is from its first bytes, never from its name: users rename files, and
/// the Health app localises them (`vienti.zip`, `导出.xml`).
enum InputDetector {
    static func detect(path: String) throws -> InputFormat {
        let head = try InputFile.head(path: path, count: 4096)
        if let encoding = wideEncoding(head) {
            throw InputError(
                file: path, location: InputLocation(byteOffset: 0),
                message:
                    "the file is \(encoding) text; health-import reads UTF-8 (as the Health app and Health Auto Export write it): convert it first, e.g. iconv -f \(encoding) -t UTF-8"
            )
        }
        guard let format = detect(head: head) else {
            if head.isEmpty { throw InputError(file: path, message: "the file is empty") }
            if head.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
                throw InputError(file: path, message: "the file holds only white space")
            }
            throw InputError(
                file: path,
                message:
                    "not an Apple Health export (export.zip or export.xml) nor Health Auto Export JSON: the content starts with neither a ZIP signature, '<' nor '{' / '['"
            )
        }
        return format
    }

    /// "UTF-16" or "UTF-32" when the first bytes are a byte-order mark of one, or '<' / '{' / '['
    /// with zero bytes beside it (no byte-order mark); nil otherwise.
    static func wideEncoding(_ head: Data) -> String? {
        let b = [UInt8](head.prefix(4))
        guard b.count >= 2 else { return nil }
        if b.count >= 4, b[0] == 0xFF, b[1] == 0xFE, b[2] == 0, b[3] == 0 { return "UTF-32" }
        if b.count >= 4, b[0] == 0, b[1] == 0, b[2] == 0xFE, b[3] == 0xFF { return "UTF-32" }
        if (b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF) { return "UTF-16" }
        let markup: Set<UInt8> = [UInt8(ascii: "<"), UInt8(ascii: "{"), UInt8(ascii: "[")]
        if b.count >= 4, b[0] == 0, b[1] == 0, b[2] == 0, markup.contains(b[3]) { return "UTF-32" }
        if b.count >= 4, markup.contains(b[0]), b[1] == 0, b[2] == 0, b[3] == 0 { return "UTF-32" }
        if (b[0] == 0 && markup.contains(b[1])) || (markup.contains(b[0]) && b[1] == 0) { return "UTF-16" }
        return nil
    }

    /// The format for the first bytes of a file, or nil when it is none of ours.
    static func detect(head: Data) -> InputFormat? {
        let bytes = [UInt8](head.prefix(4096))
        if bytes.count >= 4, bytes[0] == 0x50, bytes[1] == 0x4B, bytes[2] == 0x03 || bytes[2] == 0x05, bytes[3] == 0x04 || bytes[3] == 0x06
        {
            return .appleZip
        }
        var i = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }  // UTF-8 BOM
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
        guard i < bytes.count else { return nil }
        switch bytes[i] {
        case UInt8(ascii: "<"): return .appleXML
        case UInt8(ascii: "{"), UInt8(ascii: "["): return .hae
        default: return nil
        }
    }
}
