import Foundation

/// A PostgreSQL database as `--store` names it: `postgres://USER@HOST:PORT/DB` or
/// `postgresql://…`, with libpq's query parameters (`?host=/run/postgresql` for a Unix socket,
/// `sslmode=…`). libpq itself reads the text (`PostgresConnection.parse`), so every form it
/// allows works; a text carrying a password is refused, because a command line is seen by every
/// user of the machine (`ps`) and kept in shell histories: the password comes from libpq's own
/// PGPASSWORD or PGPASSFILE (a file libpq reads only when its mode is 0600).
struct PostgresLocation: Sendable, Equatable {
    /// The `--store` text: what messages name the store by.
    let shown: String
    /// libpq's connection keywords and values read from the text.
    let settings: [Setting]

    struct Setting: Sendable, Equatable {
        let keyword: String
        let value: String
    }

    static func isPostgres(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    init(_ text: String) throws {
        let parsed: [Setting]
        do {
            parsed = try PostgresConnection.parse(text)
        } catch let reason as PostgresConnection.UnreadableURL {
            throw UsageError("--store", "--store \(Self.withoutPassword(text)): not a PostgreSQL URL libpq can read: \(reason.message)")
        }
        guard !parsed.contains(where: { $0.keyword == "password" }) else {
            throw UsageError(
                "--store",
                "--store: the PostgreSQL URL carries a password, which a command line shows to every user of the machine; "
                    + "give the URL without it and the password in PGPASSWORD or in a PGPASSFILE of mode 0600")
        }
        shown = text
        settings = parsed + [Setting(keyword: "application_name", value: "health-import")]
    }

    /// The text with anything between `://` and `@` after a `:` blanked, for the one message
    /// about a text libpq cannot read (which might still hold a password).
    static func withoutPassword(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].firstIndex(of: "@") else {
            return text.components(separatedBy: "password=").first ?? text
        }
        let user = text[scheme.upperBound..<at]
        guard let colon = user.firstIndex(of: ":") else { return text.components(separatedBy: "password=").first ?? text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
