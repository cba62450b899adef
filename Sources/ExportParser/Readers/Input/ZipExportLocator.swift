import Foundation
import ZIPFoundation

/// Finds the main export XML inside an `export.zip` by content, not by name: the name is
/// localised (`export.xml`, `Export.xml`, `导出.xml`, `vienti.xml`, …) and the
/// `apple_health_export/` folder may be missing. macOS junk (`__MACOSX/`, `._*`) and the CDA
/// document (`export_cda.xml`) are never taken.
enum ZipExportLocator {
    struct Found: @unchecked Sendable {
        let archive: Archive
        let entry: Entry
    }

    static func locate(path: String) throws -> Found {
        let archive: Archive
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read)
        } catch {
            throw InputError(file: path, message: "not a readable ZIP archive (\(error)); is the download complete?")
        }
        var candidates: [Entry] = []
        var names: [String] = []
        for entry in archive where entry.type == .file {
            let p = entry.path
            names.append(p)
            let components = p.split(separator: "/")
            guard let last = components.last, components.count <= 2 else { continue }
            if p.hasPrefix("__MACOSX/") || last.hasPrefix("._") { continue }
            guard last.lowercased().hasSuffix(".xml"), !last.lowercased().hasPrefix("export_cda") else { continue }
            candidates.append(entry)
        }
        // Prefer the usual name when several qualify; otherwise the first whose content says HealthData.
        candidates.sort { a, b in
            let an = a.path.lowercased().hasSuffix("/export.xml") || a.path.lowercased() == "export.xml"
            let bn = b.path.lowercased().hasSuffix("/export.xml") || b.path.lowercased() == "export.xml"
            return an && !bn
        }
        for entry in candidates where looksLikeExport(archive, entry) {
            return Found(archive: archive, entry: entry)
        }
        let listing = names.prefix(8).joined(separator: ", ") + (names.count > 8 ? ", …" : "")
        throw InputError(file: path, message: "the ZIP archive holds no Apple Health export XML (no entry whose content starts a <HealthData> document); entries: \(listing.isEmpty ? "none" : listing)")
    }

    /// True when the first KiB of the entry has `<!DOCTYPE HealthData` or `<HealthData`.
    private static func looksLikeExport(_ archive: Archive, _ entry: Entry) -> Bool {
        struct Enough: Error {}
        var head = Data()
        do {
            _ = try archive.extract(entry, bufferSize: 4096, skipCRC32: true) { chunk in
                head.append(chunk)
                if head.count >= 4096 { throw Enough() }
            }
        } catch is Enough {
        } catch {
            return false
        }
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        return text.contains("<!DOCTYPE HealthData") || text.contains("<HealthData")
    }
}
