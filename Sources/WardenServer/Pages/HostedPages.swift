import Hummingbird
import Logging
import WardenCore
import WardenWire

/// What every hosted page's route shares (SPEC §5, §6.4, §7.1): failures become pages, never JSON or a stack
/// trace, and posted forms are read with the limits of SPEC §11.
enum HostedPages {
    /// Runs `handler`: a thrown ``ErrorPage`` or ``NoticePage`` is rendered; an error by which `store` says the
    /// database is down is answered 503 with `Retry-After` (SPEC §11, ``ServiceUnavailable``); anything else is
    /// logged and answered with ``ErrorPage/serverError``.
    static func respond(
        _ context: WardenRequestContext, store: (any WardenStore)? = nil, _ handler: () async throws -> Response
    ) async -> Response {
        do {
            return try await handler()
        } catch let page as ErrorPage {
            return PageRenderer.shared.response(page)
        } catch let page as NoticePage {
            return PageRenderer.shared.response(page)
        } catch  where store?.isUnavailable(error) == true {
            context.logger.warning("database unavailable", metadata: ["error": "\(String(reflecting: error))"])
            return ServiceUnavailable.pageResponse()
        } catch {
            context.logger.error("hosted page failure", metadata: ["error": "\(String(reflecting: error))"])
            return PageRenderer.shared.response(ErrorPage.serverError)
        }
    }

    /// The posted form; an unreadable or oversized body is ``ErrorPage/unreadableForm`` with the status the
    /// body deserves (400, 413).
    static func readForm(_ request: Request) async throws -> RequestParameters {
        do {
            return try await RequestParameters.read(from: request)
        } catch let error as OAuthError {
            var page = ErrorPage.unreadableForm
            page.status = .init(code: error.statusCode)
            throw page
        }
    }
}
