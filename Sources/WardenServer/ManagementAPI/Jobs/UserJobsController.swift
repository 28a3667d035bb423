import Hummingbird
import NIOCore
import WardenCore
import WardenWire

/// `/api/v2/jobs/users-imports`, `/api/v2/jobs/users-exports` and `/api/v2/jobs/{id}` (SPEC §9 "Bulk users"):
/// bulk-users jobs in the vendor's shapes. Creating an import needs `create:users`; an export, a job's status,
/// its errors and an export's download need `read:users`.
struct UserJobsController {
    /// The largest users file of one import: the vendor's 500 KB (larger sets are split into several jobs, or
    /// imported offline with `warden users import`).
    static let maxFileBytes = 500 * 1024
    /// The multipart body around the file: its part headers and the other fields.
    static let maxFormOverhead = 16 * 1024
    /// The fields an import form may carry (`external_id` and `send_completion_email` are the vendor's, accepted
    /// and ignored).
    static let importFields: Set<String> = ["users", "upsert", "connection_id", "external_id", "send_completion_email"]

    let store: any WardenStore
    let runner: UserJobRunner
    let audit: ManagementAudit
    let clock: any WardenClock
    let issuer: String

    func addRoutes(to group: RouterGroup<WardenRequestContext>) {
        group.post("jobs/users-imports") { request, context in
            try await audit.change("Create import users job", scope: "create:users", request, context) {
                try await createImport(request, context)
            }
        }
        group.post("jobs/users-exports") { request, context in
            try await audit.change("Create export users job", scope: "read:users", request, context) {
                try await createExport(request, context)
            }
        }
        group.get("jobs/:id") { _, context in
            try context.requireScope("read:users")
            return Response.json(UserJobRepresentation.job(try await job(context), issuer: issuer))
        }
        group.get("jobs/:id/errors") { _, context in
            try context.requireScope("read:users")
            let job = try await job(context)
            let rejections = try await store.userJobErrors(jobID: job.id)
            // A job that failed as a whole answers with itself and its status_details, as the vendor does.
            if job.status == .failed, rejections.isEmpty {
                return Response.json(UserJobRepresentation.job(job, issuer: issuer))
            }
            return Response.json(.array(rejections.map(UserJobRepresentation.rejection)))
        }
        group.get("jobs/:id/download") { _, context in
            try context.requireScope("read:users")
            let job = try await job(context)
            guard job.type == .usersExport, job.status == .completed else {
                throw ManagementError.notFound("job", "The job has no completed export to download.")
            }
            return download(job)
        }
    }

    private static let notFound = ManagementError.notFound("job", "The job does not exist.")

    /// The job of the path, after failing interrupted ones so that a job stopped by a restart reads `failed`.
    private func job(_ context: WardenRequestContext) async throws -> UserJob {
        let id = try ManagementRequest.parameter("id", of: context)
        try await runner.failInterruptedJobs()
        guard let job = try await store.userJob(id: id) else { throw Self.notFound }
        return job
    }

    /// `multipart/form-data` with `users` (the file), optional `upsert` (`true`/`false`) and `connection_id`.
    private func createImport(_ request: Request, _ context: WardenRequestContext) async throws -> Response {
        guard let boundary = MultipartForm.boundary(ofContentType: request.headers[.contentType]) else {
            throw ManagementError.invalidBody("Request must be multipart/form-data with a users file")
        }
        let tooLarge = ManagementError(
            statusCode: 413, errorCode: "payload_too_large", message: "The users file is larger than 500 KB")
        let body = try await RequestBodyReader.collect(
            request, limit: Self.maxFileBytes + Self.maxFormOverhead, tooLarge: tooLarge)
        guard let form = MultipartForm(body, boundary: boundary) else {
            throw ManagementError.invalidBody("Request body is not valid multipart/form-data")
        }
        if let unknown = form.fields.keys.sorted().first(where: { !Self.importFields.contains($0) }) {
            throw ManagementError.invalidBody(
                "Payload validation error: 'Additional properties not allowed: \(unknown)'")
        }
        guard let file = form.fields["users"] else {
            throw ManagementError.invalidBody("Payload validation error: 'Missing required property: users'")
        }
        guard file.count <= Self.maxFileBytes else { throw tooLarge }
        guard let first = file.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }),
            first == UInt8(ascii: "[") || first == UInt8(ascii: "{")
        else {
            throw ManagementError.invalidBody("The users file must be a JSON array of user objects")
        }
        let upsert: Bool
        switch form.fields["upsert"].map({ String(decoding: $0, as: UTF8.self) }) {
        case nil, "false": upsert = false
        case "true": upsert = true
        default: throw ManagementError.invalidBody("Payload validation error: 'upsert' must be true or false")
        }
        let connectionID = try Self.connectionID(
            form.fields["connection_id"].map { String(decoding: $0, as: UTF8.self) })
        let job = UserJob(type: .usersImport, connectionID: connectionID, upsert: upsert, createdAt: clock.now())
        try await store.insertUserJob(job)
        runner.startImport(job, file: file, clientID: context.managementClientID)
        return Response.json(UserJobRepresentation.job(job, issuer: issuer), status: .created)
    }

    /// `{"format": "json", "connection_id"}`; `json` (one user a line) is the only format and the default.
    private func createExport(_ request: Request, _ context: WardenRequestContext) async throws -> Response {
        let body = try await ManagementBody.read(request, allowed: ["format", "connection_id"])
        if let format = try body.string("format"), format != "json" {
            throw body.invalid("format", "The only export format is json")
        }
        let connectionID = try Self.connectionID(try body.string("connection_id"))
        let job = UserJob(type: .usersExport, connectionID: connectionID, format: "json", createdAt: clock.now())
        try await store.insertUserJob(job)
        runner.startExport(job, clientID: context.managementClientID)
        return Response.json(UserJobRepresentation.job(job, issuer: issuer), status: .created)
    }

    /// The database connection, by its id or its name; absent means that one. Other connections' users come from
    /// their upstream (SPEC §15), not from files.
    private static func connectionID(_ given: String?) throws -> String {
        guard let given, given != Connection.databaseID, given != Connection.databaseName else {
            return Connection.databaseID
        }
        throw ManagementError.invalidBody(
            "Users are imported into and exported from the database connection only (\(Connection.databaseID)), "
                + "not \(given)")
    }

    /// The export's output, one JSON object a line, streamed part by part from storage.
    private func download(_ job: UserJob) -> Response {
        let store = store
        let body = ResponseBody { writer in
            var after: Int?
            while true {
                let parts = try await store.userExportParts(jobID: job.id, after: after, limit: 16)
                guard let last = parts.last else { break }
                for part in parts { try await writer.write(ByteBuffer(string: part.text)) }
                after = last.sequence
            }
            try await writer.finish(nil)
        }
        return Response(
            status: .ok, headers: [.contentType: "application/x-ndjson; charset=utf-8"], body: body)
    }
}
