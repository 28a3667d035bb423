import WardenAuthenticator
import WardenCore
import WardenWire

/// A consent (SPEC §6.5, §7.3) as text lines for the terminal: who asks, the binding message, the API and scopes,
/// then every authorization detail as ``AuthorizationDetailsDisplay`` lays it out for the approval page and
/// e-mail too (a `money_transfer` as Amount / From / To / Beneficiary rows), with aligned values.
///
/// Every string from the server or the requesting client passes through ``DisplayText/clean(_:)`` (SPEC §11), so
/// control and bidirectional-formatting characters cannot move the cursor, start a line or reorder what the
/// user approves.
enum ConsentRendering {
    /// The lines for `consent`; `client` is the client's name from the push's alert title
    /// (``AuthenticationNotification/clientName``), when the payload had one.
    static func lines(consent: Consent, client: String?, account: String?) -> [String] {
        let details = consent.requestedDetails
        var header: [(label: String, value: String)] = []
        if let bindingMessage = details.bindingMessage { header.append(("Binding message", bindingMessage)) }
        if let audience = details.audience { header.append(("API", audience)) }
        if !details.scope.isEmpty { header.append(("Scopes", details.scope.joined(separator: " "))) }
        if let account { header.append(("Account", account)) }
        var lines = [client.map { "Request from \(DisplayText.clean($0))" } ?? "Authorization request"]
        lines += aligned(header, indent: "  ")
        for section in AuthorizationDetailsDisplay.sections(.array(details.authorizationDetails)) {
            lines.append("  " + section.heading)
            lines += AuthorizationDetailsDisplay.textLines(section.rows, indent: "    ")
        }
        return lines
    }

    /// `label: value` rows with the values starting in one column.
    static func aligned(_ rows: [(label: String, value: String)], indent: String) -> [String] {
        AuthorizationDetailsDisplay.textLines(
            rows.map { .init(label: DisplayText.clean($0.label), value: DisplayText.clean($0.value)) }, indent: indent)
    }
}
