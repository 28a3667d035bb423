import HTTPTypes
import WardenCore

/// The error pages of the front channel. Each says what happened and what the person can do; none of them
/// redirects (RFC 6749 §4.1.2.1: never to an unverified `redirect_uri`).
extension ErrorPage {
    static let unknownClient = ErrorPage(
        title: "Unknown application", message: "The application that sent you here is not registered.",
        advice: "Contact the application's developer.", status: .badRequest)

    /// A Client ID Metadata Document that cannot be used (SPEC §13), naming the problem.
    static func unusableMetadataDocument(_ problem: String) -> ErrorPage {
        ErrorPage(
            title: "Application not recognised",
            message: "The application's metadata document could not be used: \(problem).",
            advice: "Contact the application's developer; the document must be reachable over https and valid.",
            status: .badRequest)
    }

    /// `/authorize?organization=` for a client whose `organization_usage` is `deny` (SPEC §19).
    static let organizationsNotAllowed = ErrorPage(
        title: "Organizations not supported", message: "This application does not sign people in to organizations.",
        advice: "Open the application without the organization, or contact its developer.", status: .badRequest)

    static let invalidRedirect = ErrorPage(
        title: "Invalid redirect address", message: "The application sent an invalid redirect address.",
        advice: "Contact the application's developer.", status: .badRequest)

    static let malformedRequest = ErrorPage(
        title: "Invalid request", message: "The application sent a malformed sign-in request.",
        advice: "Contact the application's developer.", status: .badRequest)

    static let expiredTransaction = ErrorPage(
        title: "Sign-in expired", message: "This sign-in page has expired or was already used.",
        advice: "Go back to the application and sign in again.", status: .badRequest)

    static let unverifiedForm = ErrorPage(
        title: "Form not accepted", message: "The form could not be verified.",
        advice: "Go back, reload the page and try again. Cookies must be enabled for this site.",
        status: .forbidden)

    static let unreadableForm = ErrorPage(
        title: "Form not accepted", message: "The form could not be read.",
        advice: "Go back, reload the page and try again.", status: .badRequest)

    static let invalidLogout = ErrorPage(
        title: "Invalid sign-out request", message: "The application sent an invalid sign-out request.",
        advice: "Close this window, or contact the application's developer.", status: .badRequest)

    static let serverError = ErrorPage(
        title: "Something went wrong", message: "The sign-in service could not complete your request.",
        advice: "Try again in a few minutes.", status: .internalServerError)

    static let notFound = ErrorPage(
        title: "Page not found", message: "There is no page at this address.",
        advice: "Check the address, or go back to the application.", status: .notFound)

    static let methodNotAllowed = ErrorPage(
        title: "Request not accepted", message: "This page cannot be used this way.",
        advice: "Go back to the application and try again.", status: .methodNotAllowed)

    static let temporarilyUnavailable = ErrorPage(
        title: "Service unavailable", message: "The sign-in service is temporarily unavailable.",
        advice: "Try again in a few moments.", status: .serviceUnavailable)
}

extension ErrorPage {
    /// `/authorize?connection=` naming a connection that does not exist or is not enabled for the application
    /// (SPEC §15).
    static func unknownConnection(_ name: String) -> ErrorPage {
        ErrorPage(
            title: "Sign-in method not available",
            message: "The application asked to sign you in with “\(DisplayText.clean(String(name.prefix(128))))”, "
                + "which is not available to it.",
            advice: "Go back to the application and choose another way to sign in, or contact its developer.",
            status: .badRequest)
    }

    /// A callback from an identity provider whose `state` is unknown, used, expired or another browser's: there
    /// is no login to return to (SPEC §15).
    static let unknownUpstreamState = ErrorPage(
        title: "Sign-in expired",
        message: "The answer of the identity provider does not belong to a sign-in started in this browser, "
            + "or it was already used or is more than 10 minutes old.",
        advice: "Go back to the application and sign in again.", status: .badRequest)
}
