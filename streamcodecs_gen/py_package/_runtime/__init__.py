"""Runtime support shared by the generated protocol modules (standard library, plus msgspec for JSON)."""
