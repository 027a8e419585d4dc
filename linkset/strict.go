package linkset

import "encoding/json"

// strictCheck is a placeholder replaced by internal/strictjson once it lands.
func strictCheck(data []byte) *Problem {
	if !json.Valid(data) {
		return &Problem{Rule: "json-syntax", Section: "4.1", Message: "invalid JSON"}
	}
	return nil
}
