import WardenCore

/// The errors of the device API and `/rich-consents` (SPEC §7), in the Management error shape.
extension ManagementError {
    /// 404: the enrolment ticket is unknown, used or expired (SPEC §7.1).
    static let enrollmentTransactionNotFound = ManagementError(
        statusCode: 404, errorCode: "enrollment_transaction_not_found",
        message: "The enrollment ticket is not valid: it is unknown, already used or expired.")
    /// 404: the device account named by the path or the device JWT is gone.
    static let deviceAccountNotFound = ManagementError(
        statusCode: 404, errorCode: "device_account_not_found", message: "The device account does not exist.")
    /// 404: the transaction, or its request through another device, was already answered (SPEC §7.4).
    static let loginTransactionNotFound = ManagementError(
        statusCode: 404, errorCode: "login_transaction_not_found",
        message: "The transaction was already answered.")
    /// 404: an unknown consent, or one not linked to this transaction (SPEC §7.3).
    static let consentNotFound = ManagementError(
        statusCode: 404, errorCode: "consent_not_found", message: "The consent does not exist.")
    /// 409: the user already has a device with this `identifier` (SPEC §7.1).
    static let alreadyEnrolled = ManagementError(
        statusCode: 409, errorCode: "already_enrolled", message: "This device is already enrolled for the user.")
    /// 410: the request expired (SPEC §7).
    static let transactionExpired = ManagementError(
        statusCode: 410, errorCode: "transaction_expired", message: "The transaction has expired.")
}
