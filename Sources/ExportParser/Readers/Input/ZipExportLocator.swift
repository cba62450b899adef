#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Finds the main export XML inside an `export.zip` by content, not by name: the name is
/// localised (`export.xml`, `Export.xml`, `导出.xml`, `vienti.xml`, …) and the
/// `apple_health_export/` folder may be missing. macOS junk (`__MACOSX/`, `._*`), the CDA
/// document (`export_cda.xml`) and entries whose names would climb out of a folder (`../`,
/// absolute) are never taken; no entry name is ever used as a path.
enum ZipExportLocator {
    /// The archive, open, and its export entry. The caller closes `fd`.
    struct Found: Sendable {
        let fd: Int32
        let fileSize: UInt64
        let entry: ZipDirectory.Entry
    }

    static func locate(path: String) throws -> Found {
        let fd = try InputFile.openRegular(path: path)
        do {
            return try locate(fd: fd, path: path)
        } catch {
            close(fd)
            throw error
        }
    }

    private static func locate(fd: Int32, path: String) throws -> Found {
        let directory: ZipDirectory
        do {
            directory = try ZipDirectory(fd: fd, path: path)
        } catch let f as ZipDirectory.Failure {
            throw f.inputError(file: path)
        }
        var candidates: [ZipDirectory.Entry] = []
        var names: [String] = []
        for entry in directory.entries where !entry.isDirectory && !entry.isSymlink {
            let p = entry.name
            guard !entry.hasUnsafeName else {
                names.append(entry.printableName + " (ignored: unsafe name)")
                continue
            }
            names.append(entry.printableName)
            let components = p.split(separator: "/")
            guard let last = components.last, components.count <= 2 else { continue }
            if p.hasPrefix("__MACOSX/") || last.hasPrefix("._") { continue }
            guard last.lowercased().hasSuffix(".xml"), !last.lowercased().hasPrefix("export_cda") else { continue }
            candidates.append(entry)
        }
        // Prefer the usual name when several qualify; otherwise the first whose content says HealthData.
        candidates.sort { a, b in
            let an = a.name.lowercased().hasSuffix("/export.xml") || a.name.lowercased() == "export.xml"
            let bn = b.name.lowercased().hasSuffix("/export.xml") || b.name.lowercased() == "export.xml"
            return an && !bn
        }
        var refusal: ZipDirectory.Failure?
        for entry in candidates {
            do {
                if try looksLikeExport(fd: fd, fileSize: directory.fileSize, entry) {
                    return Found(fd: fd, fileSize: directory.fileSize, entry: entry)
                }
            } catch let f as ZipDirectory.Failure {
                // An encrypted or damaged candidate: say why when no other candidate is the export.
                refusal = refusal ?? f
            }
        }
        if let refusal {
            throw InputError(file: path, location: refusal.offset.map { InputLocation(byteOffset: Int64($0)) }, message: refusal.message)
        }
        let listing = names.prefix(8).joined(separator: ", ") + (names.count > 8 ? ", …" : "")
        throw InputError(
            file: path,
            message:
                "the ZIP archive holds no Apple Health export XML (no entry whose content starts a <HealthData> document); entries: \(listing.isEmpty ? "none" : listing)"
        )
    }

    /// True when the first 4 KiB of the entry have `<!DOCTYPE HealthData` or `<HealthData`.
    private static func looksLikeExport(fd: Int32, fileSize: UInt64, _ entry: ZipDirectory.Entry) throws -> Bool {
        struct Enough: Error {}
        var head: [UInt8] = []
        var stream = ZipEntryStream(fd: fd, entry: entry, fileSize: fileSize)
        stream.chunkSize = 4096
        do {
            try stream.read(checkCRC: false) { chunk in
                head.append(contentsOf: chunk)
                if head.count >= 4096 { throw Enough() }
            }
        } catch is Enough {
        } catch let f as ZipDirectory.Failure where head.isEmpty {
            throw f
        } catch {
            // The head was read; a problem further in is reported when the entry is read whole.
        }
        let text = String(decoding: head.prefix(4096), as: UTF8.self)
        return text.contains("<!DOCTYPE HealthData") || text.contains("<HealthData")
    }
}
