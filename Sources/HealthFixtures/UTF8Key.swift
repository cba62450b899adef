import ExportParser
import Foundation

/// A dictionary key that hashes and compares a string's UTF-8 bytes as they are. The fixture
/// writers look up a record type or a source name for every record they write; `String`'s own
/// hashing first brings the text into its normal form, which made these lookups a tenth of a
/// `--scale` run. The names here are the generator's own constants, already in one form.
///
/// Unsafe code, kept on purpose: hashing and comparing over `String.UTF8View` instead (a byte
/// at a time) made `fixtures --scale 20` cost 14 % more instructions (callgrind). Safe because
/// each pointer comes from `withUTF8` on a local copy and is used only inside that closure,
/// with the closure's count as the length.
struct UTF8Key: Hashable {
    let text: String

    init(_ text: String) { self.text = text }

    func hash(into hasher: inout Hasher) {
        var t = text
        t.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }

    static func == (a: UTF8Key, b: UTF8Key) -> Bool {
        var x = a.text, y = b.text
        return x.withUTF8 { p in
            y.withUTF8 { q in p.count == q.count && (p.isEmpty || memcmp(p.baseAddress!, q.baseAddress!, p.count) == 0) }
        }
    }
}
