public import WardenCore
import WardenWire

/// The export file of SPEC §9 "Bulk users" (the vendor's `json` export format): one user a line, as
/// `GET /api/v2/users/{id}` shows it; ``UserImportEntry`` reads it back.
public enum UserExportFormat {
    /// One line of the file, with its newline.
    public static func line(_ user: User) -> String {
        UsersController.representation(user).serialized + "\n"
    }
}
