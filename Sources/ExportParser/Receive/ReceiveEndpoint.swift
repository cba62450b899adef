/// The two streams `receive` takes, each on its own path: the app's daily payloads (the body it
/// POSTs to the backend) and Health Auto Export's REST automation. The raw value is what the
/// store's `received_bodies.endpoint` column holds.
public enum ReceiveEndpoint: String, Sendable, CaseIterable {
    /// `POST /sync/healthkit`: `{"data": [payload, …]}` or a bare payload, as the app sends it.
    case app = "sync/healthkit"
    /// `POST /hae`: a Health Auto Export body (any shape the HAE reader takes).
    case hae = "hae"

    /// The request path the server routes to this endpoint.
    public var path: String { "/" + rawValue }

    /// The side of `compare` a body of this endpoint is: the app's payloads are the native side.
    public var side: String { self == .app ? "native" : "hae" }
}
