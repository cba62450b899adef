import ExportParser
import Foundation

/// A dictionary key that hashes and compares a string's UTF-8 bytes as they are. The fixture
/// writers look up a record type or a source name for every record they write; `String`'s own
/// hashing first brings the text into its normal form, which made these lookups a tenth of a
/// `--scale` run. The names here are the generator's own constants, already in one form.
struct UTF8Key: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    func hash(into hasher: inout Hasher) {
        for byte in text.utf8 { hasher.combine(byte) }
    }

    static func == (a: UTF8Key, b: UTF8Key) -> Bool {
        a.text.utf8.elementsEqual(b.text.utf8)
    }
}
