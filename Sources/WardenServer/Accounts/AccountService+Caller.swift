import Hummingbird
import WardenCore

extension AccountService.Caller {
    /// The browser or app behind `request`: its address (`X-Forwarded-For` only from `trustedProxies`), its
    /// `User-Agent`, and the application it came through, when known.
    init(client: Client?, request: Request, context: WardenRequestContext, trustedProxies: [CIDR]) {
        self.init(
            clientID: client?.clientID, clientName: client?.name,
            ip: ClientAddress.ip(of: request, context: context, trusted: trustedProxies),
            userAgent: request.headers[.userAgent])
    }
}
