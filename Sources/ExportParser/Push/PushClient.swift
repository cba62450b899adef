import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What one HTTP request gave: a response, or the transport's error (time-out, refused or
/// dropped connection, TLS failure).
enum HTTPExchange: Sendable {
    case response(status: Int, retryAfter: String?, body: Data)
    case transportError(URLError.Code, String)
}

/// The HTTP client: Foundation's URLSession (FoundationNetworking, libcurl underneath, on Linux),
/// which ships with the toolchain, so `push` adds no package to build. It verifies TLS
/// certificates against the system's trust store; nothing here overrides that. Redirects are
/// not followed, so the API key never goes to a host it was not given for. Requests are made
/// synchronously from the sender's worker threads (`exchange` waits for its task).
// @unchecked Sendable: URLSession is thread-safe; the key and settings are immutable.
final class PushClient: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    private let key: APIKey?
    private var session: URLSession!

    init(key: APIKey?, timeout: Double, connections: Int) {
        self.key = key
        super.init()
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = timeout
        config.timeoutIntervalForResource = timeout
        config.httpMaximumConnectionsPerHost = connections
        config.requestCachePolicy = .reloadIgnoringLocalCacheData
        config.urlCache = nil
        config.httpCookieStorage = nil
        config.httpShouldSetCookies = false
        session = URLSession(configuration: config, delegate: self, delegateQueue: nil)
    }

    func post(_ url: URL, body: Data) -> HTTPExchange {
        var r = request(url)
        r.httpMethod = "POST"
        r.setValue("application/json", forHTTPHeaderField: "Content-Type")
        r.httpBody = body
        return exchange(r)
    }

    func get(_ url: URL) -> HTTPExchange {
        var r = request(url)
        r.httpMethod = "GET"
        return exchange(r)
    }

    /// Cancels every request in flight (they end as `.cancelled`) and refuses new ones: the run
    /// stops at once.
    func cancelAll() { session.invalidateAndCancel() }

    /// Ends the session once the run is done (URLSession holds its delegate until then).
    func finish() { session.finishTasksAndInvalidate() }

    private func request(_ url: URL) -> URLRequest {
        var r = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        r.setValue("application/json", forHTTPHeaderField: "Accept")
        r.setValue("health-import/\(ExportParserVersion.current)", forHTTPHeaderField: "User-Agent")
        if let key { r.setValue(key.value, forHTTPHeaderField: "x-api-key") }
        return r
    }

    private func exchange(_ request: URLRequest) -> HTTPExchange {
        let done = DispatchSemaphore(value: 0)
        let box = ExchangeBox()
        let task = session.dataTask(with: request) { data, response, error in
            if let http = response as? HTTPURLResponse, error == nil {
                let retryAfter = http.value(forHTTPHeaderField: "Retry-After")
                box.value = .response(status: http.statusCode, retryAfter: retryAfter, body: data ?? Data())
            } else {
                var code = (error as? URLError)?.code ?? .unknown
                // FoundationNetworking (curl) reports a failed TLS handshake, such as https:// to a
                // plain-HTTP server, as -1 ("unknown"); Apple's URLSession as -1200.
                if code == .unknown, request.url?.scheme?.lowercased() == "https" { code = .secureConnectionFailed }
                // The description names the URL at most (never the headers).
                box.value = .transportError(code, Self.describe(code))
            }
            done.signal()
        }
        task.resume()
        done.wait()
        return box.value ?? .transportError(.unknown, "no response")
    }

    // @unchecked Sendable: written by the task's completion handler before it signals, read after the wait.
    private final class ExchangeBox: @unchecked Sendable {
        var value: HTTPExchange?
    }

    /// A short reason for the summary, without the URL or anything the request carried.
    static func describe(_ code: URLError.Code?) -> String {
        switch code {
        case .timedOut?: return "timed out"
        case .networkConnectionLost?: return "connection dropped"
        case .cannotConnectToHost?: return "connection refused"
        case .cannotFindHost?, .dnsLookupFailed?: return "host not found"
        case .notConnectedToInternet?: return "not connected to a network"
        case .badServerResponse?: return "bad or no response (connection dropped?)"
        case .cancelled?: return "cancelled"
        case .secureConnectionFailed?: return "the TLS handshake failed: does the server speak https at this address?"
        case let c? where Self.isTLSFailure(c): return "TLS certificate not accepted"
        case let c?: return "network error \(c.rawValue)"
        case nil: return "network error"
        }
    }

    static func isTLSFailure(_ code: URLError.Code) -> Bool {
        [
            .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
            .serverCertificateNotYetValid, .clientCertificateRejected, .clientCertificateRequired,
        ].contains(code)
    }

    // MARK: URLSessionTaskDelegate

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)  // the 3xx itself is the response
    }
}
