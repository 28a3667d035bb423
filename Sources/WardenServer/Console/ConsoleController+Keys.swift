import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The signing keys page (SPEC §14 "signing keys", §2): every key with its state, "Rotate keys" (a new current key
/// for every algorithm in use, the old one kept published as previous) and "Revoke" on a previous key.
struct ConsoleKeysPage: Page {
    static let template = "console_keys"
    let title = "Signing keys"
    var chrome: ConsoleChrome
    var keys: [Key]
    /// What the last change did, from a fixed set of texts.
    var notice: String?

    struct Key: Sendable {
        var kid: String
        var algorithm: String
        var state: String
        var since: String
        /// Set for a previous key that is still published: it may be revoked.
        var revocable: Bool
    }

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <p class="hint">Tokens are signed with the current key of their algorithm; previous keys stay in the JWKS so
        tokens they signed still verify, until revoked.</p>
        <form method="post" action="{{chrome.base}}keys/rotate">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <button type="submit">Rotate keys</button>
        </form>
        <div class="table"><table>
        <caption>Signing keys</caption>
        <thead><tr><th scope="col">Key id</th><th scope="col">Algorithm</th><th scope="col">State</th>
        <th scope="col">Since</th><th scope="col"><span class="visually-hidden">Action</span></th></tr></thead>
        <tbody>
        {{#keys}}<tr><td data-label="Key id"><code>{{kid}}</code></td><td data-label="Algorithm">{{algorithm}}</td>
        <td data-label="State">{{state}}</td><td data-label="Since">{{since}}</td><td>
        {{#revocable}}<form method="post" action="{{chrome.base}}keys/{{kid}}/revoke">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <button type="submit" class="danger" aria-label="Revoke key {{kid}}">Revoke</button></form>{{/revocable}}
        </td></tr>
        {{/keys}}
        </tbody></table></div>
        {{/page}}{{/content}}{{/layout}}
        """
}

extension ConsoleController {
    func addKeyRoutes(to admin: RouterGroup<WardenRequestContext>) {
        admin.get("keys") { request, context in
            await page(request, context, current: "Keys") { chrome in
                let done = request.uri.queryParameters["done"].map(String.init)
                let rows = try await signingKeys.signingKeys().sorted {
                    ($0.current ? 0 : 1, $0.alg.rawValue, $1.createdAt) < (
                        $1.current ? 0 : 1, $1.alg.rawValue, $0.createdAt
                    )
                }.map { record in
                    ConsoleKeysPage.Key(
                        kid: record.kid, algorithm: record.alg.rawValue,
                        state: record.current ? "current" : record.revokedAt != nil ? "revoked" : "previous",
                        since: ConsolePages.time(record.revokedAt ?? record.currentSince ?? record.createdAt),
                        revocable: !record.current && record.revokedAt == nil)
                }
                let notice: String? =
                    switch done {
                    case "rotated": "New current keys were made; the previous ones stay published until revoked."
                    case "revoked": "The key was revoked: it is no longer published, and tokens it signed fail."
                    default: nil
                    }
                return ConsoleKeysPage(chrome: chrome, keys: rows, notice: notice)
            }
        }
        admin.post("keys/rotate") { request, context in
            await change(request, context, "Rotate the Application Signing Key") { _ in
                _ = try await keys.rotate()
                return base + "keys?done=rotated"
            }
        }
        admin.post("keys/:kid/revoke") { request, context in
            await change(request, context, "Revoke an Application Signing Key") { _ in
                let kid = try context.parameters.require("kid")
                do {
                    try await keys.revoke(kid: kid)
                } catch StorageError.conflict {
                    throw ErrorPage(
                        title: "Key not revoked", message: "The key \(kid) is current: it signs new tokens.",
                        advice: "Rotate the keys first, then revoke it from \(base)keys.", status: .conflict)
                } catch StorageError.notFound {
                    throw ErrorPage(
                        title: "No such key", message: "There is no signing key \(kid).",
                        advice: "Go back to \(base)keys.", status: .notFound)
                }
                return base + "keys?done=revoked"
            }
        }
    }
}
