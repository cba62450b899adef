import Foundation

/// What to do after one response (docs/push.md, "Retries"): the day is done, or given up, or
/// tried again after a wait, or the whole run stops.
enum PushDecision: Equatable, Sendable {
    case accepted(status: Int)
    /// Sending the same body again would get the same answer: record it and move on.
    case rejected(status: Int?, reason: String)
    case retry(status: Int?, after: Double, reason: String)
    /// Authentication refused, or a certificate not trusted: no other day can succeed either.
    case stopRun(reason: String)
}

/// 429 and 503 wait as long as `Retry-After` says (cut to `maxRetryAfter`); other 5xx, 408,
/// time-outs and dropped connections back off exponentially, `base · 2^(n−1)` capped at
/// `maxDelay`, times a jitter factor from 0.5 to 1 so that the workers (and other clients) do
/// not all come back at the same instant. The random source is injected so tests are exact.
struct RetryPolicy: Sendable {
    var baseDelay: Double
    var maxDelay: Double
    var maxRetryAfter: Double
    /// A number in [0, 1).
    var random: @Sendable () -> Double = { Double.random(in: 0..<1) }

    /// The wait before the next request after `failures` failed ones (1 for the first retry).
    func backoff(after failures: Int) -> Double {
        let raw = min(maxDelay, baseDelay * pow(2, Double(max(0, failures - 1))))
        return raw * (0.5 + 0.5 * random())
    }

    func decide(_ exchange: HTTPExchange, failures: Int, host: String, key: APIKey?) -> PushDecision {
        switch exchange {
        case .transportError(let code, let text):
            if PushClient.isTLSFailure(code) {
                return .stopRun(reason: "the TLS connection to \(host) failed (\(text)); nothing more is sent")
            }
            if code == .badURL || code == .unsupportedURL {
                return .stopRun(reason: "the URL cannot be used (\(text))")
            }
            return .retry(status: nil, after: backoff(after: failures), reason: text)
        case .response(let status, let retryAfter, let body):
            switch status {
            case 200..<300:
                if Self.isAccepted(body) { return .accepted(status: status) }
                return .rejected(status: status, reason: "HTTP \(status) without {\"status\": \"accepted\"}" + Self.message(body, key: key))
            case 401, 403:
                return .stopRun(
                    reason: "the backend refused the API key (HTTP \(status)" + Self.message(body, key: key)
                        + "); check --api-key-file or \(APIKey.environmentName). Nothing more is sent")
            case 429, 503:
                let wait = retryAfter.flatMap { Self.seconds($0) }.map { min($0, maxRetryAfter) } ?? backoff(after: failures)
                return .retry(status: status, after: wait, reason: "HTTP \(status)")
            case 408, 500..<600:
                return .retry(status: status, after: backoff(after: failures), reason: "HTTP \(status)")
            default:
                return .rejected(status: status, reason: "HTTP \(status)" + Self.message(body, key: key))
            }
        }
    }

    /// `Retry-After` as seconds: a number of seconds, or an HTTP date (RFC 9110).
    static func seconds(_ header: String, now: Date = Date()) -> Double? {
        let t = header.trimmingCharacters(in: .whitespaces)
        if let n = Double(t), n.isFinite { return max(0, n) }
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: "GMT")
        f.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = f.date(from: t) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }

    static func isAccepted(_ body: Data) -> Bool {
        (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["status"] as? String == "accepted"
    }

    /// The server's own explanation (`detail`, `error` or `message` of a JSON body), short, with
    /// the key removed should it echo it; empty when there is none.
    static func message(_ body: Data, key: APIKey?) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return "" }
        for name in ["detail", "error", "message"] {
            guard let text = object[name] as? String, !text.isEmpty else { continue }
            let short = text.count > 160 ? String(text.prefix(160)) + "…" : text
            let line = short.replacingOccurrences(of: "\n", with: " ")
            return ": " + (key?.redact(line) ?? line)
        }
        return ""
    }
}
