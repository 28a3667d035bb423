import Foundation
import WardenAuthenticator
import WardenCore

/// A sign-in request (a login transaction, SPEC §12) as text lines for the terminal: the question
/// "Sign in to {client} from {browser} on {os}, {location}?", each part left out when the push did not say it,
/// then the account. There is no consent to show (SPEC §12: `/rich-consents` is not used for login transactions).
///
/// The client is the `{client name}` of the push's body `Sign in to {client name}`
/// (``AuthenticationNotification/clientName``); a body of another form is shown as it came. Every string passes
/// through ``DisplayText/clean(_:)`` (SPEC §11), as in ``ConsentRendering``.
enum SignInRendering {
    /// The lines for `notification`; `account` names the enrolment it was sent to.
    static func lines(_ notification: AuthenticationNotification, account: String?) -> [String] {
        var rows: [(label: String, value: String)] = []
        if notification.clientName == nil, let body = notification.alert?.body {
            rows.append(("Notification", body))
        }
        if let account { rows.append(("Account", account)) }
        return [question(notification)] + ConsentRendering.aligned(rows, indent: "  ")
    }

    /// "Sign in to {client} from {browser} on {os}, {location}?" with the unknown parts left out; a location
    /// alone reads "Sign in to {client} from {location}?".
    static func question(_ notification: AuthenticationNotification) -> String {
        func known(_ text: String?) -> String? {
            text.map(DisplayText.clean).flatMap { $0.isEmpty ? nil : $0 }
        }
        var text = "Sign in"
        if let client = known(notification.clientName) { text += " to \(client)" }
        let browser = known(notification.source?.browser?.name)
        let system = known(notification.source?.operatingSystem?.name)
        if let browser { text += " from \(browser)" }
        if let system { text += " on \(system)" }
        if let place = known(place(notification.location)) {
            text += (browser == nil && system == nil ? " from " : ", ") + place
        }
        return text + "?"
    }

    /// The location's name, else its coordinates.
    private static func place(_ location: AuthenticationLocation?) -> String? {
        guard let location else { return nil }
        if let name = location.name, !name.isEmpty { return name }
        guard let latitude = location.latitude, let longitude = location.longitude else { return nil }
        return String(format: "%.2f, %.2f", latitude, longitude)
    }
}
