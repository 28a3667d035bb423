import WardenCore
import WardenMail

/// Carries out one kind of ``DeliveryJob`` for ``DeliveryService``.
protocol DeliveryHandler: Sendable {
    var kind: DeliveryJob.Kind { get }
    /// Performs the job. Throwing schedules a retry with backoff, unless the error is
    /// ``DeliveryFailure/permanent(_:)``.
    func deliver(_ job: DeliveryJob) async throws
    /// The job will not be attempted again (it expired, failed for good, or ran out of attempts).
    func abandon(_ job: DeliveryJob, reason: String) async
}

/// A failure that retrying cannot fix (a malformed job, an address the server refuses for good).
struct DeliveryFailure: Error, CustomStringConvertible {
    var description: String
    static func permanent(_ description: String) -> DeliveryFailure { DeliveryFailure(description: description) }

    /// `address` as a mail recipient; one that cannot be used fails the job for good.
    static func recipient(_ address: String) throws -> MailAddress {
        do {
            return try MailAddress(address)
        } catch {
            throw permanent("the e-mail address cannot be used: \(error)")
        }
    }
}
