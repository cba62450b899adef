import Foundation

/// The backend's API key, read from a file only its owner can read or from the environment.
/// Never from the command line: any user of the machine can list a process's arguments. The
/// key is never printed, logged, put in an error or stored; `redact` removes it from any text
/// that came from elsewhere (a server's error message that echoes a header) before it is shown.
struct APIKey: Sendable {
    static let environmentName = "HEALTH_IMPORT_API_KEY"
    let value: String

    /// From `file` when given (refused unless it is a regular file of this user that nobody else
    /// can read or write), else from the environment.
    static func load(file: String?, environment: [String: String]) throws -> APIKey {
        if let file { return try APIKey(checked: try read(file), source: file) }
        guard let v = environment[environmentName], !v.isEmpty else {
            throw UsageError("--api-key-file", "give the API key in a file (--api-key-file FILE, mode 0600) or in \(environmentName)")
        }
        return try APIKey(checked: v, source: environmentName)
    }

    private init(checked text: String, source: String) throws {
        let v = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !v.isEmpty else { throw InputError(file: source, message: "holds no API key") }
        // A header value: visible ASCII only. The key itself is not quoted in the message.
        guard v.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw InputError(file: source, message: "the API key holds spaces or characters an HTTP header cannot carry")
        }
        value = v
    }

    /// The text of a secret file (an API key file, `receive --keys`): refused unless it is a
    /// regular file of this user that nobody else can read or write, and at most `limit` bytes.
    static func read(_ file: String, limit: Int = 4096) throws -> String {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw InputError(file: file, message: "cannot read the API key file: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            throw InputError(file: file, message: "is not a regular file; the API key file must be one")
        }
        guard st.st_uid == geteuid() else {
            throw InputError(file: file, message: "belongs to another user; the API key file must be yours, mode 0600")
        }
        guard st.st_mode & 0o077 == 0 else {
            let mode = String(st.st_mode & 0o777, radix: 8)
            throw InputError(file: file, message: "has mode \(mode): others can read or change the API key; run chmod 600 \(file)")
        }
        guard st.st_size <= limit else { throw InputError(file: file, message: "is larger than \(limit / 1024) KB: not a key file") }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size) + 1)
        let n: Int
        do {
            n = try POSIXFile.fill(&bytes, from: fd)
        } catch {
            throw InputError(file: file, message: "cannot read the API key file: \(error.reason)")
        }
        guard let text = String(bytes: bytes[0..<n], encoding: .utf8) else {
            throw InputError(file: file, message: "the API key file is not text")
        }
        return text
    }

    /// `text` with every occurrence of the key replaced (for what a server sent back).
    func redact(_ text: String) -> String {
        text.replacingOccurrences(of: value, with: "[API key]")
    }
}
