import ExportParser
import Foundation
import NIOCore

/// The server could not listen where `--listen` says: one sentence naming the address, instead of
/// SwiftNIO's `bind(descriptor:ptr:bytes:): Address already in use (errno: 98)`.
public struct ListenError: UserFacingError {
    public let description: String

    /// The sentence for `error` when it is a failed bind of `host:port`; nil for any other error.
    static func from(_ error: any Error, host: String, port: Int) -> ListenError? {
        guard let io = error as? IOError else { return nil }
        let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        switch io.errnoCode {
        case EADDRINUSE:
            return ListenError(
                description:
                    "\(address) is in use by another program (another receive?); stop it, or give another port with --listen, e.g. --listen \(host.contains(":") ? "[\(host)]" : host):\(port == 65535 ? port - 1 : port + 1)"
            )
        case EACCES:
            return ListenError(
                description:
                    "\(address) may not be listened on by this user (ports below 1024 need privileges); give a port from 1024 up with --listen"
            )
        case EADDRNOTAVAIL:
            return ListenError(
                description: "\(address) is not an address of this machine; give one of its own with --listen, e.g. 127.0.0.1:\(port)")
        default:
            return nil
        }
    }
}
