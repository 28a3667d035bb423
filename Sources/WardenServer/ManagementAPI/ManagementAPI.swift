import Hummingbird

/// The Management API under `{issuer}api/v2/` (SPEC §9): one controller per resource.
struct ManagementAPI {
    let runtime: WardenRuntime

    /// Registers every Management route on `group` (already behind ``ManagementAuthMiddleware``).
    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        ClientsController(runtime: runtime).addRoutes(to: group)
        ResourceServersController(runtime: runtime).addRoutes(to: group)
        ClientGrantsController(runtime: runtime).addRoutes(to: group)
        UsersController(runtime: runtime).addRoutes(to: group)
        RolesController(runtime: runtime).addRoutes(to: group)
        OrganizationsController(runtime: runtime).addRoutes(to: group)
        LogsController(runtime: runtime).addRoutes(to: group)
        SigningKeysController(runtime: runtime).addRoutes(to: group)
        GuardianController(runtime: runtime).addRoutes(to: group)
        PostLoginRulesController(runtime: runtime).addRoutes(to: group)
        MFAController(runtime: runtime).addRoutes(to: group)
        ConnectionsController(runtime: runtime).addRoutes(to: group)
        TicketsController(runtime: runtime).addRoutes(to: group)
        UserJobsController(
            store: runtime.store, runner: runtime.userJobs, audit: ManagementAudit(runtime: runtime),
            clock: runtime.clock, issuer: runtime.issuer
        ).addRoutes(to: group)
    }
}
