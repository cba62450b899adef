import Hummingbird
import NIOCore

/// Hummingbird's request context plus the connection, so that a refused oversized request can
/// stop its connection's input instead of reading the rest of the body.
struct ReceiveContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}
