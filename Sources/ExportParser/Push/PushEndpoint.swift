import Foundation

/// The backend's base URL, checked before anything is sent: health data and the API key go over
/// TLS (`https://`), or in plain `http://` only to this machine (a loopback address: a local
/// test server or a tunnel), where nobody on the network can read them.
struct PushEndpoint: Sendable, Equatable {
    /// The base URL as the store records pushes under it: scheme and host lowercased, no
    /// trailing slash (pushes to a staging and a production backend are counted apart).
    let base: String
    let host: String

    init(_ text: String) throws {
        guard let c = URLComponents(string: text), let scheme = c.scheme?.lowercased(), let rawHost = c.host, !rawHost.isEmpty else {
            throw UsageError("--url", "--url \"\(text)\" is not a URL such as https://api.example.com")
        }
        guard c.user == nil, c.password == nil else {
            throw UsageError(
                "--url", "--url must not hold a user name or password; the API key goes in --api-key-file or \(APIKey.environmentName)")
        }
        guard c.query == nil, c.fragment == nil else {
            throw UsageError("--url", "--url must be the backend's base URL, without a query or fragment")
        }
        let host = rawHost.hasPrefix("[") && rawHost.hasSuffix("]") ? String(rawHost.dropFirst().dropLast()) : rawHost
        switch scheme {
        case "https": break
        case "http":
            guard Self.isLoopback(host) else {
                throw UsageError(
                    "--url",
                    "--url \(scheme)://\(host) is plain HTTP to another machine: health data and the API key would cross the network unencrypted; use https:// (plain http:// is allowed only to a loopback address such as 127.0.0.1)"
                )
            }
        default:
            throw UsageError("--url", "--url must start with https:// (or http:// to a loopback address)")
        }
        var path = c.path
        while path.hasSuffix("/") { path.removeLast() }
        let shownHost = host.contains(":") ? "[\(host.lowercased())]" : host.lowercased()
        base = scheme + "://" + shownHost + (c.port.map { ":\($0)" } ?? "") + path
        self.host = host.lowercased()
    }

    var syncURL: URL { URL(string: base + "/sync/healthkit")! }
    var statusURL: URL { URL(string: base + "/sync/status")! }

    /// The 16 bytes of an IPv6 address, read from the C struct's byte tuple (its field names
    /// differ between glibc and Darwin).
    static func bytes(_ a: in6_addr) -> [UInt8] {
        #if os(Linux)
            let b = a.__in6_u.__u6_addr8
        #else
            let b = a.__u6_addr.__u6_addr8
        #endif
        return [b.0, b.1, b.2, b.3, b.4, b.5, b.6, b.7, b.8, b.9, b.10, b.11, b.12, b.13, b.14, b.15]
    }

    /// `localhost`, 127.0.0.0/8 and ::1 (also written as an IPv4-mapped address).
    static func isLoopback(_ host: String) -> Bool {
        let h = host.lowercased()
        if h == "localhost" || h.hasSuffix(".localhost") { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, h, &v4) == 1 { return UInt32(bigEndian: v4.s_addr) >> 24 == 127 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, h, &v6) == 1 {
            let bytes = Self.bytes(v6)
            if bytes[0..<15].allSatisfy({ $0 == 0 }) && bytes[15] == 1 { return true }  // ::1
            let mapped = bytes[0..<10].allSatisfy { $0 == 0 } && bytes[10] == 0xFF && bytes[11] == 0xFF
            return mapped && bytes[12] == 127
        }
        return false
    }
}
