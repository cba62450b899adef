import Foundation

/// A folder given as an input: the list of its files, in name order, each taken as if it were
/// named on the command line (docs/usage.md, "A folder is the list of its files"). People unzip an export beside their Health
/// Auto Export files, or keep a backend's bodies in one folder: the folder's export.xml (or
/// export.zip) and HAE JSON are read together. A file that is none of the inputs convert reads is
/// named and skipped, never read as something it is not: the export's own `export_cda.xml` (an
/// XML file whose root is not `HealthData`), a zip without an export, payload JSON, notes, images.
/// Hidden files (`.DS_Store`, `._export.xml`) are passed over without a word, and so are folders
/// inside (`workout-routes/`, `electrocardiograms/`: their files are not data convert reads).
enum FolderInput {
    struct File: Equatable {
        var path: String
        var format: InputFormat
    }

    /// The folder's usable files and the skipped ones with why. Throws when the folder cannot be
    /// listed, or when none of its files can be used (a sentence naming the folder and what it
    /// holds instead).
    static func files(of dir: String) throws -> (files: [File], skipped: [(path: String, reason: String)]) {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: dir).filter { !$0.hasPrefix(".") }.sorted()
        } catch {
            throw InputError(file: dir, message: "the folder cannot be listed")
        }
        var files: [File] = []
        var skipped: [(path: String, reason: String)] = []
        var payloads = 0
        for name in names {
            let path = dir + "/" + name
            if HAEBody.isDirectory(path) { continue }
            switch classify(path) {
            case .use(let format): files.append(File(path: path, format: format))
            case .payload:
                payloads += 1
                skipped.append((path, PayloadInput.skipReason))
            case .skip(let reason): skipped.append((path, reason))
            }
        }
        if files.isEmpty {
            if payloads > 0, payloads == skipped.count { throw PayloadInput.refusal(dir) }
            let what =
                skipped.isEmpty
                ? "it holds no file"
                : "its files are none of them: "
                    + skipped.prefix(3).map { "\(URL(fileURLWithPath: $0.path).lastPathComponent) (\($0.reason))" }
                    .joined(separator: "; ") + (skipped.count > 3 ? "; and \(skipped.count - 3) more" : "")
            throw InputError(
                file: dir,
                message: "is a folder without an Apple Health export (export.zip, export.xml) or Health Auto Export JSON: \(what)")
        }
        return (files, skipped)
    }

    enum Kind: Equatable {
        case use(InputFormat)
        case payload
        case skip(String)
    }

    /// What one file of a folder is, from its bytes (as `InputDetector`), with the checks a file
    /// named on purpose does not need: an XML file must be an export (its root `HealthData`), a
    /// zip must hold one.
    static func classify(_ path: String) -> Kind {
        let format: InputFormat
        let head: Data
        do {
            format = try InputDetector.detect(path: path)
            head = try InputFile.head(path: path, count: 65_536)
        } catch let e as InputError {
            return .skip(e.message)
        } catch {
            return .skip("cannot be read")
        }
        switch format {
        case .appleXML:
            // Apple's DOCTYPE names the root in the first lines; the CDA document's root is
            // `ClinicalDocument`.
            guard head.range(of: Data("HealthData".utf8)) != nil else {
                return .skip("an XML file that is not an Apple Health export.xml (its root is not HealthData)")
            }
            return .use(.appleXML)
        case .appleZip:
            do {
                let found = try ZipExportLocator.locate(path: path)
                close(found.fd)
            } catch let e as InputError {
                return .skip(e.message)
            } catch {
                return .skip("a zip file without an Apple Health export")
            }
            return .use(.appleZip)
        case .hae:
            return PayloadSniffer.isPayload([UInt8](head)) ? .payload : .use(.hae)
        }
    }
}
