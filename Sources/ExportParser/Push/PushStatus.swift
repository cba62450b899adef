import Foundation

/// `GET URL/sync/status`, asked before anything is sent: the backend's `last_healthkit_sync`,
/// reported so the user sees where the backend stands. Only an authentication failure stops the
/// run here; a status the backend cannot give does not stop the push itself.
enum PushStatus {
    enum Answer: Equatable {
        case known(String)
        case unavailable(String)
        case stop(String)
    }

    static func check(_ client: PushClient, endpoint: PushEndpoint, key: APIKey) -> Answer {
        switch client.get(endpoint.statusURL) {
        case .transportError(let code, let text):
            if PushClient.isTLSFailure(code) {
                return .stop("the TLS connection to \(endpoint.host) failed (\(text)); nothing was sent")
            }
            return .unavailable(text)
        case .response(let status, _, let body):
            if status == 401 || status == 403 {
                return .stop(
                    "the backend refused the API key (HTTP \(status)\(RetryPolicy.message(body, key: key))); check --api-key-file or \(APIKey.environmentName). Nothing was sent"
                )
            }
            guard (200..<300).contains(status) else { return .unavailable("HTTP \(status)") }
            guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else {
                return .unavailable("not a JSON object")
            }
            if let text = object["last_healthkit_sync"] as? String { return .known(key.redact(text)) }
            if object["last_healthkit_sync"] is NSNull { return .known("never") }
            return .unavailable("no last_healthkit_sync in the answer")
        }
    }
}
