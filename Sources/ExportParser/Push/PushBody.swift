/// The body sent for a day: `{"data": [payload]}` as the app sends it, or the payload alone.
public enum PushBody: String, Sendable, CaseIterable {
    case wrapped, bare
}
