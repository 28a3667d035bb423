import Hummingbird
import Logging
import WardenCore
import WardenWire

/// Runs the post-login hooks of SPEC §8 on a login: the enabled post-login rules in `order`, then the embedder's
/// ``PostLoginPolicy`` values; the first denial wins. Without a denial, a matching `require_mfa` rule (or a policy
/// answering ``PostLoginDecision/requireMFA``) makes the decision ``PostLoginDecision/requireMFA`` (SPEC §12).
///
/// The rules are read from the database on each login — one indexed query returning the few enabled rules, well
/// under a millisecond — so a rule created or disabled on any node applies to the next login everywhere.
struct PostLoginCheck: Sendable {
    let rules: any PostLoginRuleStore
    /// The embedder's hooks, run after the rules.
    let policies: [any PostLoginPolicy]
    /// The ASN and country of the client IP.
    let ipIntelligence: IPIntelligence
    /// `--trusted-proxies`: whose `X-Forwarded-For` names the client.
    let trustedProxies: [CIDR]
    let eventLog: EventLog
    let clock: any WardenClock
    let logger: Logger

    /// A check running the enabled rules of `rules`, then `policies`; denials are logged to `eventLog`.
    init(
        rules: any PostLoginRuleStore, policies: [any PostLoginPolicy], ipIntelligence: IPIntelligence,
        trustedProxies: [CIDR], eventLog: EventLog, clock: any WardenClock, logger: Logger
    ) {
        self.rules = rules
        self.policies = policies
        self.ipIntelligence = ipIntelligence
        self.trustedProxies = trustedProxies
        self.eventLog = eventLog
        self.clock = clock
        self.logger = logger
    }

    /// The request part of a login event: the client IP (SPEC §8: the socket peer, or `X-Forwarded-For` from
    /// `--trusted-proxies`), its ASN and country from the IP database, the user agent.
    func requestInfo(_ request: Request, context: WardenRequestContext) -> LoginEvent.RequestInfo {
        let ip = ClientAddress.ip(of: request, context: context, trusted: trustedProxies)
        let info = ip.flatMap(ipIntelligence.lookup)
        return LoginEvent.RequestInfo(
            ip: ip, asn: info?.asn, userAgent: request.headers[.userAgent], countryCode: info?.countryCode)
    }

    /// What the hosted login's check of a login decided.
    enum Outcome: Sendable {
        /// The login may go on; `requiresMFA` when a `require_mfa` rule (or policy) matched (SPEC §12).
        case allowed(requiresMFA: Bool)
        /// The response that refuses it.
        case refused(Response)
    }

    /// The hosted login's check of `user` signing in to `client` (SPEC §8: a password login, or an SSO session
    /// answering `/authorize`): allowed (perhaps with a second factor); or refused, with an `access_denied` error
    /// redirect to `authorization`'s redirect URI with the reason as `error_description` (and `state`), or an error
    /// page saying why for a login that answers no authorization request (a CIBA approval link, SPEC §6.4).
    func check(
        _ user: User, client: Client, answering authorization: AuthorizationRequest?, request: Request,
        context: WardenRequestContext, connection: Connection = .database
    ) async throws -> Outcome {
        let event = LoginEvent(
            request: requestInfo(request, context: context), user: user, client: client,
            connectionName: connection.name, connectionStrategy: connection.strategy)
        let reason: String
        switch try await decide(event) {
        case .allow: return .allowed(requiresMFA: false)
        case .requireMFA: return .allowed(requiresMFA: true)
        case .deny(let denial): reason = denial
        }
        guard let authorization else {
            return .refused(
                PageRenderer.shared.response(
                    ErrorPage(
                        title: "Sign-in refused", message: reason,
                        advice: "Contact the administrator if this is wrong.", status: .forbidden)))
        }
        return .refused(authorization.responseTarget.response(OAuthError(.accessDenied, reason)))
    }

    /// Whether the login may go on, and whether it needs a second factor (the `ruleRequiresMFA` of
    /// ``MFARequirement``). A denial is logged `f` (SPEC §10) with the reason as its description and the rule (or
    /// policy) that denied in its details.
    func decide(_ event: LoginEvent) async throws -> PostLoginDecision {
        let (denial, requiresMFA) = try await evaluate(event)
        guard let denial else { return requiresMFA ? .requireMFA : .allow }
        eventLog.record(
            LogEvent(
                date: clock.now(), type: .loginFailure, description: denial.reason,
                clientID: event.client.clientID, clientName: event.client.name, ip: event.request.ip,
                userAgent: event.request.userAgent, userID: event.user.userID, userName: event.user.email,
                details: denial.details))
        return .deny(reason: denial.reason)
    }

    /// The first denial, if any, and whether a rule or policy before it asked for a second factor.
    private func evaluate(_ event: LoginEvent) async throws -> (
        denial: (reason: String, details: [String: JSONValue])?, requiresMFA: Bool
    ) {
        let evaluator = RuleEvaluator(event: event)
        var requiresMFA = false
        for rule in try await rules.enabledPostLoginRules() where matches(rule, evaluator) {
            guard rule.action != .requireMFA else {
                requiresMFA = true
                continue
            }
            let source: JSONValue = ["id": .string(rule.id), "name": .string(rule.name)]
            return ((rule.denyReason, ["post_login_rule": source]), requiresMFA)
        }
        for policy in policies {
            switch try await policy.evaluate(event) {
            case .allow: continue
            case .requireMFA: requiresMFA = true
            case .deny(let reason):
                return ((reason, ["post_login_policy": .string(String(describing: type(of: policy)))]), requiresMFA)
            }
        }
        return (nil, requiresMFA)
    }

    /// Whether `rule` matches. A stored condition that does not parse (the Management API accepts none) fails
    /// closed: it matches (a `deny` rule denies), and the operator is told which rule to fix.
    private func matches(_ rule: PostLoginRule, _ evaluator: RuleEvaluator) -> Bool {
        do {
            return evaluator.matches(try RuleParser.parse(rule.condition))
        } catch {
            logger.error(
                "A post-login rule does not parse: it applies to every login until fixed",
                metadata: ["rule": "\(rule.id)", "error": "\(error)"])
            return true
        }
    }
}
