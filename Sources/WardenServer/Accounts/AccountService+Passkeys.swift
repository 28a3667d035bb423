import Foundation
import WardenCore
import WardenWire

extension AccountService {
    /// The checks of a passkey sign-up before its ceremony (SPEC §17 `/passkey/register`, §15.1): sign-up enabled,
    /// the per-IP limit, an address that can be one and is not in use (`invalidSignup`, never saying more). A
    /// refusal is logged `fs` and thrown as a ``SignUpRefusal``. Returns the account to make once the credential
    /// verifies (``finishPasskeySignUp(_:credential:caller:)``).
    func admitPasskeySignUp(email: String, name: String?, caller: Caller) async throws
        -> PasskeyCeremonies.Pending.SignUp
    {
        let email = email.trimmingCharacters(in: .whitespaces).lowercased()
        do {
            guard !(try await settings().signupDisabled) else { throw SignUpRefusal.disabled }
            if let retryAfter = limits.signups.admit(caller.ip ?? "unknown") {
                throw SignUpRefusal.tooMany(retryAfter: retryAfter)
            }
            guard EmailAddress.isValid(email) else { throw SignUpRefusal.invalidEmail }
            guard try await store.user(email: email) == nil else { throw SignUpRefusal.invalidSignup }
            return .init(userID: User.generatedID(now: clock.now()), email: email, name: name)
        } catch let refusal as SignUpRefusal {
            log(.signupFailed, Self.describe(refusal), userID: nil, email: email, caller)
            throw refusal
        }
    }

    /// Makes the account of a passkey sign-up with its first passkey, in one transaction (no password; the
    /// verification e-mail sent), and logs `ss`. An address taken or a credential registered since the ceremony
    /// began → `invalid_grant`, nothing stored.
    func finishPasskeySignUp(
        _ signUp: PasskeyCeremonies.Pending.SignUp, credential: WebAuthnCredential, caller: Caller
    ) async throws -> User {
        var user = User(userID: signUp.userID, email: signUp.email, createdAt: clock.now())
        user.name = signUp.name
        let result: WebAuthnCredentialInsert
        do {
            result = try await store.insertUser(UserRecord(user: user, passwordHash: nil), credential: credential)
        } catch StorageError.conflict {
            log(.signupFailed, Self.describe(.invalidSignup), userID: nil, email: signUp.email, caller)
            throw OAuthError(.invalidGrant, "Invalid sign up")
        }
        guard result == .inserted else {
            log(.signupFailed, "The passkey is registered already", userID: nil, email: signUp.email, caller)
            throw OAuthError(.invalidGrant, "credential: the passkey is registered already")
        }
        log(.signupSucceeded, "Successful signup with a passkey", user: user, caller)
        try await sendVerificationEmail(to: user, caller: caller)
        return user
    }
}
