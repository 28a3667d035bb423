// swift-format-ignore-file
// The OpenAPI 3.1 description of the Management API and of the Authentication API's JSON endpoints
// (SPEC §9), served at `GET /api/v2/openapi.json` by ``OpenAPIController``. Kept in the binary as text:
// no resource bundle. tests/interop/test_openapi.py validates it and checks every live response against it.

/// The OpenAPI document, as JSON text.
enum OpenAPIDocument {
    static let json: String = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Warden",
    "version": "1.0.0",
    "summary": "Warden's Management API (v2) and the JSON endpoints of its Authentication API.",
    "description": "Paths are relative to the issuer (`{issuer}`, which ends with a slash). The Management API lives under `/api/v2/` and follows that vendor's Management API v2 wire format: errors are `{statusCode, error, message, errorCode}`; list endpoints answer a bare array, or with `include_totals=true` a `{start, limit, length, total, <items>}` wrapper; bodies over 64 KiB are refused with 413. Its Bearer token comes from `POST /oauth/token` with `grant_type=client_credentials` and `audience={issuer}api/v2/`. The authenticator device API (`/appliance-mfa/api/…`, `/rich-consents/…`, tag `device`) answers errors in the Management shape. Authentication API errors are `{error, error_description}` with `Cache-Control: no-store`."
  },
  "jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
  "servers": [
    {
      "url": "/",
      "description": "The issuer."
    }
  ],
  "tags": [
    {
      "name": "authentication",
      "description": "Authentication API"
    },
    {
      "name": "discovery",
      "description": "OpenID Connect discovery and keys"
    },
    {
      "name": "operations",
      "description": "Health checks"
    },
    {
      "name": "clients"
    },
    {
      "name": "resource-servers"
    },
    {
      "name": "client-grants"
    },
    {
      "name": "users"
    },
    {
      "name": "roles"
    },
    {
      "name": "post-login-rules",
      "description": "Post-login rules (SPEC §8)"
    },
    {
      "name": "logs"
    },
    {
      "name": "guardian",
      "description": "Authenticator enrolments (Management API)"
    },
    {
      "name": "device",
      "description": "The authenticator device API (wire-compatible with that vendor's Guardian SDKs): enrolment, the device account, pending transactions, consent details and allow / reject. Not under `/api/v2/` and not authorized by Management tokens: each operation names the `Authorization` form it takes. Errors have the Management shape `{statusCode, error, message, errorCode}`. Pending transactions also arrive, as JSON text messages with the webhook body, on the WebSocket `GET /appliance-mfa/api/device-accounts/{id}/stream` (device JWT), not described here."
    },
    {
      "name": "keys"
    },
    {
      "name": "meta"
    }
  ],
  "paths": {
    "/api/v2/clients": {
      "get": {
        "operationId": "getClients",
        "summary": "List clients",
        "tags": [
          "clients"
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/page"
          },
          {
            "$ref": "#/components/parameters/per_page"
          },
          {
            "$ref": "#/components/parameters/include_totals"
          }
        ],
        "security": [
          {
            "bearerAuth": [
              "read:clients"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The clients, ordered by creation.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ClientList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidQuery"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "post": {
        "operationId": "createClient",
        "summary": "Create a client",
        "tags": [
          "clients"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ClientCreate"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "create:clients"
            ]
          }
        ],
        "responses": {
          "201": {
            "description": "The client, with its secret when it uses one.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ClientCreated"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/clients/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The client_id.",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getClient",
        "summary": "Get a client",
        "tags": [
          "clients"
        ],
        "security": [
          {
            "bearerAuth": [
              "read:clients"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The client.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Client"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundClient"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "patch": {
        "operationId": "updateClient",
        "summary": "Update a client",
        "tags": [
          "clients"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ClientUpdate"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "update:clients"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The updated client.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Client"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundClient"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "delete": {
        "operationId": "deleteClient",
        "summary": "Delete a client",
        "tags": [
          "clients"
        ],
        "security": [
          {
            "bearerAuth": [
              "delete:clients"
            ]
          }
        ],
        "responses": {
          "204": {
            "description": "Done; no body."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundClient"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/clients/{id}/rotate-secret": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The client_id.",
          "schema": {
            "type": "string"
          }
        }
      ],
      "post": {
        "operationId": "rotateClientSecret",
        "summary": "Rotate a client's secret",
        "tags": [
          "clients"
        ],
        "description": "No body. The new secret is shown only in this answer.",
        "security": [
          {
            "bearerAuth": [
              "update:clients"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The client with its new secret; the old one stops working.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ClientSecretRotated"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundClient"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/resource-servers": {
      "get": {
        "operationId": "getResourceServers",
        "summary": "List APIs",
        "tags": [
          "resource-servers"
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/page"
          },
          {
            "$ref": "#/components/parameters/per_page"
          },
          {
            "$ref": "#/components/parameters/include_totals"
          }
        ],
        "security": [
          {
            "bearerAuth": [
              "read:resource_servers"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The APIs, the system API included.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ResourceServerList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidQuery"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "post": {
        "operationId": "createResourceServer",
        "summary": "Create an API",
        "tags": [
          "resource-servers"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ResourceServerCreate"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "create:resource_servers"
            ]
          }
        ],
        "responses": {
          "201": {
            "description": "The API.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ResourceServer"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/resource-servers/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The API's id, or its URL-encoded identifier.",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getResourceServer",
        "summary": "Get an API",
        "tags": [
          "resource-servers"
        ],
        "security": [
          {
            "bearerAuth": [
              "read:resource_servers"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The API.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ResourceServer"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundResourceServer"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "patch": {
        "operationId": "updateResourceServer",
        "summary": "Update an API",
        "tags": [
          "resource-servers"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ResourceServerUpdate"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "update:resource_servers"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The updated API.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ResourceServer"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ForbiddenSystem"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundResourceServer"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "delete": {
        "operationId": "deleteResourceServer",
        "summary": "Delete an API",
        "tags": [
          "resource-servers"
        ],
        "security": [
          {
            "bearerAuth": [
              "delete:resource_servers"
            ]
          }
        ],
        "responses": {
          "204": {
            "description": "Done; no body."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/ForbiddenSystem"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundResourceServer"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/client-grants": {
      "get": {
        "operationId": "getClientGrants",
        "summary": "List client grants",
        "tags": [
          "client-grants"
        ],
        "parameters": [
          {
            "name": "client_id",
            "in": "query",
            "description": "Only this client's grants.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "audience",
            "in": "query",
            "description": "Only grants for this API identifier.",
            "schema": {
              "type": "string"
            }
          },
          {
            "$ref": "#/components/parameters/page"
          },
          {
            "$ref": "#/components/parameters/per_page"
          },
          {
            "$ref": "#/components/parameters/include_totals"
          },
          {
            "name": "from",
            "in": "query",
            "description": "Checkpoint paging: the `next` of the previous page.",
            "schema": {
              "type": "string",
              "pattern": "^\\d+$"
            }
          },
          {
            "$ref": "#/components/parameters/take"
          }
        ],
        "security": [
          {
            "bearerAuth": [
              "read:client_grants"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The client grants.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ClientGrantList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidQuery"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "post": {
        "operationId": "createClientGrant",
        "summary": "Create a client grant",
        "tags": [
          "client-grants"
        ],
        "description": "400 `invalid_body` when the client or the API does not exist or the API does not define a scope; 409 when the client already has a grant for that API.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ClientGrantCreate"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "create:client_grants"
            ]
          }
        ],
        "responses": {
          "201": {
            "description": "The client grant.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ClientGrant"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/client-grants/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The client grant id (`cgr_…`).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getClientGrant",
        "summary": "Get a client grant",
        "tags": [
          "client-grants"
        ],
        "security": [
          {
            "bearerAuth": [
              "read:client_grants"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The client grant.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ClientGrant"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundClientGrant"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "patch": {
        "operationId": "updateClientGrant",
        "summary": "Update a client grant's scopes",
        "tags": [
          "client-grants"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ClientGrantUpdate"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "update:client_grants"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The updated client grant.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/ClientGrant"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundClientGrant"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "delete": {
        "operationId": "deleteClientGrant",
        "summary": "Delete a client grant",
        "tags": [
          "client-grants"
        ],
        "security": [
          {
            "bearerAuth": [
              "delete:client_grants"
            ]
          }
        ],
        "responses": {
          "204": {
            "description": "Done; no body."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundClientGrant"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/users": {
      "get": {
        "operationId": "getUsers",
        "summary": "Search users",
        "tags": [
          "users"
        ],
        "parameters": [
          {
            "name": "q",
            "in": "query",
            "description": "Query: `field:value`, `field:\"phrase\"`, `field:prefix*`, AND/OR/NOT, parentheses, `_exists_:field`; fields `email`, `name`, `nickname`, `user_id`, `email_verified`, `blocked`, `user_metadata.*`, `app_metadata.*`.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "search_engine",
            "in": "query",
            "schema": {
              "type": "string",
              "const": "v3"
            }
          },
          {
            "name": "sort",
            "in": "query",
            "description": "`field:1` (ascending) or `field:-1`.",
            "schema": {
              "type": "string",
              "pattern": "^[a-z_]+:(1|-1)$"
            }
          },
          {
            "$ref": "#/components/parameters/page"
          },
          {
            "$ref": "#/components/parameters/per_page"
          },
          {
            "$ref": "#/components/parameters/include_totals"
          }
        ],
        "security": [
          {
            "bearerAuth": [
              "read:users"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The users.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/UserList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidQuery"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "post": {
        "operationId": "createUser",
        "summary": "Create a user",
        "tags": [
          "users"
        ],
        "description": "409 when the e-mail address or the user_id is taken.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/UserCreate"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "create:users"
            ]
          }
        ],
        "responses": {
          "201": {
            "description": "The user.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/User"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/users-by-email": {
      "get": {
        "operationId": "getUsersByEmail",
        "summary": "Find users by e-mail address",
        "tags": [
          "users"
        ],
        "parameters": [
          {
            "name": "email",
            "in": "query",
            "required": true,
            "schema": {
              "type": "string"
            }
          }
        ],
        "security": [
          {
            "bearerAuth": [
              "read:users"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The user with this address, if any (an empty array if none).",
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "maxItems": 1,
                  "items": {
                    "$ref": "#/components/schemas/User"
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidQuery"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/users/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The user_id (URL-encode the `|`).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getUser",
        "summary": "Get a user",
        "tags": [
          "users"
        ],
        "security": [
          {
            "bearerAuth": [
              "read:users"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The user.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/User"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundUser"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "patch": {
        "operationId": "updateUser",
        "summary": "Update a user",
        "tags": [
          "users"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/UserUpdate"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "update:users"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The updated user.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/User"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundUser"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "delete": {
        "operationId": "deleteUser",
        "summary": "Delete a user",
        "tags": [
          "users"
        ],
        "security": [
          {
            "bearerAuth": [
              "delete:users"
            ]
          }
        ],
        "responses": {
          "204": {
            "description": "Done; no body."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundUser"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/users/{id}/roles": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The user_id (URL-encode the `|`).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getUserRoles",
        "summary": "List a user's roles",
        "tags": [
          "users"
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/page"
          },
          {
            "$ref": "#/components/parameters/per_page"
          },
          {
            "$ref": "#/components/parameters/include_totals"
          }
        ],
        "security": [
          {
            "bearerAuth": [
              "read:users"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The user's roles.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RoleList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidQuery"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundUser"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "post": {
        "operationId": "assignUserRoles",
        "summary": "Assign roles to a user",
        "tags": [
          "users"
        ],
        "description": "400 `invalid_body` when a role does not exist.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/UserRolesBody"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "update:users"
            ]
          }
        ],
        "responses": {
          "201": {
            "description": "Added; no body."
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundUser"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "delete": {
        "operationId": "removeUserRoles",
        "summary": "Remove roles from a user",
        "tags": [
          "users"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/UserRolesBody"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "update:users"
            ]
          }
        ],
        "responses": {
          "204": {
            "description": "Done; no body."
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundUser"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/users/{id}/enrollments": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The user_id (URL-encode the `|`).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getUserEnrollments",
        "summary": "List a user's authenticator enrolments",
        "tags": [
          "guardian"
        ],
        "description": "Every confirmed enrolment of the user, oldest first: no key, no token, no secret.",
        "security": [
          {
            "bearerAuth": [
              "read:users"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The enrolments (possibly none).",
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/GuardianEnrollment"
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundUser"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/roles": {
      "get": {
        "operationId": "getRoles",
        "summary": "List roles",
        "tags": [
          "roles"
        ],
        "parameters": [
          {
            "name": "name_filter",
            "in": "query",
            "description": "Only roles whose name contains this, ignoring case.",
            "schema": {
              "type": "string"
            }
          },
          {
            "$ref": "#/components/parameters/page"
          },
          {
            "$ref": "#/components/parameters/per_page"
          },
          {
            "$ref": "#/components/parameters/include_totals"
          }
        ],
        "security": [
          {
            "bearerAuth": [
              "read:roles"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The roles.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RoleList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidQuery"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "post": {
        "operationId": "createRole",
        "summary": "Create a role",
        "tags": [
          "roles"
        ],
        "description": "409 when a role with this name exists.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/RoleCreate"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "create:roles"
            ]
          }
        ],
        "responses": {
          "201": {
            "description": "The role.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Role"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/roles/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The role id (`rol_…`).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getRole",
        "summary": "Get a role",
        "tags": [
          "roles"
        ],
        "security": [
          {
            "bearerAuth": [
              "read:roles"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The role.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Role"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundRole"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "patch": {
        "operationId": "updateRole",
        "summary": "Update a role",
        "tags": [
          "roles"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/RoleUpdate"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "update:roles"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The updated role.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/Role"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundRole"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "delete": {
        "operationId": "deleteRole",
        "summary": "Delete a role",
        "tags": [
          "roles"
        ],
        "security": [
          {
            "bearerAuth": [
              "delete:roles"
            ]
          }
        ],
        "responses": {
          "204": {
            "description": "Done; no body."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundRole"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/roles/{id}/permissions": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The role id (`rol_…`).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getRolePermissions",
        "summary": "List a role's permissions",
        "tags": [
          "roles"
        ],
        "parameters": [
          {
            "$ref": "#/components/parameters/page"
          },
          {
            "$ref": "#/components/parameters/per_page"
          },
          {
            "$ref": "#/components/parameters/include_totals"
          }
        ],
        "security": [
          {
            "bearerAuth": [
              "read:roles"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The role's permissions.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PermissionList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidQuery"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundRole"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "post": {
        "operationId": "addRolePermissions",
        "summary": "Add permissions to a role",
        "tags": [
          "roles"
        ],
        "description": "400 `invalid_body` when an API does not exist or does not define the permission.",
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PermissionsBody"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "update:roles"
            ]
          }
        ],
        "responses": {
          "201": {
            "description": "Added; no body."
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundRole"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "delete": {
        "operationId": "removeRolePermissions",
        "summary": "Remove permissions from a role",
        "tags": [
          "roles"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PermissionsBody"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "update:roles"
            ]
          }
        ],
        "responses": {
          "204": {
            "description": "Done; no body."
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundRole"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/post-login-rules": {
      "get": {
        "operationId": "getPostLoginRules",
        "summary": "List post-login rules",
        "tags": [
          "post-login-rules"
        ],
        "description": "In run order: ascending `order`, ties by creation; disabled rules included.",
        "parameters": [
          {
            "$ref": "#/components/parameters/page"
          },
          {
            "$ref": "#/components/parameters/per_page"
          },
          {
            "$ref": "#/components/parameters/include_totals"
          }
        ],
        "security": [
          {
            "bearerAuth": [
              "read:post_login_rules"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The rules.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PostLoginRuleList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidQuery"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "post": {
        "operationId": "createPostLoginRule",
        "summary": "Create a post-login rule",
        "tags": [
          "post-login-rules"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PostLoginRuleCreate"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "create:post_login_rules"
            ]
          }
        ],
        "responses": {
          "201": {
            "description": "The rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PostLoginRule"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/post-login-rules/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The rule id (`plr_…`).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getPostLoginRule",
        "summary": "Get a post-login rule",
        "tags": [
          "post-login-rules"
        ],
        "security": [
          {
            "bearerAuth": [
              "read:post_login_rules"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PostLoginRule"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundPostLoginRule"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "patch": {
        "operationId": "updatePostLoginRule",
        "summary": "Update a post-login rule",
        "tags": [
          "post-login-rules"
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/PostLoginRuleUpdate"
              }
            }
          }
        },
        "security": [
          {
            "bearerAuth": [
              "update:post_login_rules"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The updated rule.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/PostLoginRule"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundPostLoginRule"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "delete": {
        "operationId": "deletePostLoginRule",
        "summary": "Delete a post-login rule",
        "tags": [
          "post-login-rules"
        ],
        "security": [
          {
            "bearerAuth": [
              "delete:post_login_rules"
            ]
          }
        ],
        "responses": {
          "204": {
            "description": "Done; no body."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundPostLoginRule"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/logs": {
      "get": {
        "operationId": "getLogs",
        "summary": "Search the event log",
        "tags": [
          "logs"
        ],
        "parameters": [
          {
            "name": "q",
            "in": "query",
            "description": "`field:value` terms joined by AND or spaces, values of one field by OR, e.g. `type:(s OR f) AND client_id:abc`.",
            "schema": {
              "type": "string"
            },
            "examples": {
              "type": {
                "value": "type:sertft"
              }
            }
          },
          {
            "name": "search",
            "in": "query",
            "description": "A synonym of `q`.",
            "schema": {
              "type": "string"
            }
          },
          {
            "name": "sort",
            "in": "query",
            "schema": {
              "type": "string",
              "enum": [
                "date:1",
                "date:-1"
              ],
              "default": "date:-1"
            }
          },
          {
            "$ref": "#/components/parameters/page"
          },
          {
            "$ref": "#/components/parameters/per_page"
          },
          {
            "$ref": "#/components/parameters/include_totals"
          },
          {
            "name": "from",
            "in": "query",
            "description": "Checkpoint paging: a log_id; events newer than it.",
            "schema": {
              "type": "string"
            }
          },
          {
            "$ref": "#/components/parameters/take"
          }
        ],
        "security": [
          {
            "bearerAuth": [
              "read:logs"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The events, newest first (or by `sort`); with `from`/`take` a bare array of up to `take` events newer than `from`, oldest first.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/LogEventList"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidQuery"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/logs/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The log_id.",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getLog",
        "summary": "Get a log event",
        "tags": [
          "logs"
        ],
        "security": [
          {
            "bearerAuth": [
              "read:logs"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The event.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/LogEvent"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundLog"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/keys/signing": {
      "get": {
        "operationId": "getSigningKeys",
        "summary": "List signing keys",
        "tags": [
          "keys"
        ],
        "security": [
          {
            "bearerAuth": [
              "read:signing_keys"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "Every signing key, revoked ones included.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "array",
                  "items": {
                    "$ref": "#/components/schemas/SigningKey"
                  }
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/guardian/enrollments/ticket": {
      "post": {
        "operationId": "createGuardianEnrollmentTicket",
        "summary": "Create an enrolment ticket",
        "tags": [
          "guardian"
        ],
        "description": "A single-use ticket, valid 7 days, for enrolling an authenticator device for the user. ticket_url opens a page with the QR code of the otpauth:// enrolment URI; with send_mail the link is also e-mailed to the user.",
        "security": [
          {
            "bearerAuth": [
              "create:guardian_enrollment_tickets"
            ]
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "type": "object",
                "additionalProperties": false,
                "required": [
                  "user_id"
                ],
                "properties": {
                  "user_id": {
                    "type": "string"
                  },
                  "send_mail": {
                    "type": "boolean"
                  }
                }
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The ticket.",
            "content": {
              "application/json": {
                "schema": {
                  "type": "object",
                  "required": [
                    "ticket_id",
                    "ticket_url"
                  ],
                  "properties": {
                    "ticket_id": {
                      "type": "string"
                    },
                    "ticket_url": {
                      "type": "string",
                      "format": "uri"
                    }
                  }
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/InvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundUser"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/guardian/enrollments/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The enrolment id (`dev_…`).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getGuardianEnrollment",
        "summary": "Get an authenticator enrolment",
        "tags": [
          "guardian"
        ],
        "security": [
          {
            "bearerAuth": [
              "read:guardian_enrollments"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The enrolment.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/GuardianEnrollment"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundEnrollment"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "delete": {
        "operationId": "deleteGuardianEnrollment",
        "summary": "Delete an authenticator enrolment",
        "tags": [
          "guardian"
        ],
        "description": "The device is unenrolled: it gets no more pushes, its device-account token and JWTs stop working (404 `device_account_not_found`), and its pending transactions cannot be answered. Logs `gd_unenroll`.",
        "security": [
          {
            "bearerAuth": [
              "delete:guardian_enrollments"
            ]
          }
        ],
        "responses": {
          "204": {
            "description": "Deleted."
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundEnrollment"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/keys/signing/rotate": {
      "post": {
        "operationId": "rotateSigningKeys",
        "summary": "Rotate the signing keys",
        "tags": [
          "keys"
        ],
        "description": "Makes a new current key for every algorithm in use; the previous keys stay published until revoked. No body.",
        "security": [
          {
            "bearerAuth": [
              "create:signing_keys"
            ]
          }
        ],
        "responses": {
          "201": {
            "description": "The new keys.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SigningKeyRotation"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/keys/signing/{kid}": {
      "parameters": [
        {
          "name": "kid",
          "in": "path",
          "required": true,
          "description": "The key id.",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getSigningKey",
        "summary": "Get a signing key",
        "tags": [
          "keys"
        ],
        "security": [
          {
            "bearerAuth": [
              "read:signing_keys"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The key.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SigningKey"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundKey"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/keys/signing/{kid}/revoke": {
      "parameters": [
        {
          "name": "kid",
          "in": "path",
          "required": true,
          "description": "The key id.",
          "schema": {
            "type": "string"
          }
        }
      ],
      "put": {
        "operationId": "revokeSigningKey",
        "summary": "Revoke a signing key",
        "tags": [
          "keys"
        ],
        "description": "Stops publishing a previous key. A current key cannot be revoked (409: rotate first). No body.",
        "security": [
          {
            "bearerAuth": [
              "update:signing_keys"
            ]
          }
        ],
        "responses": {
          "200": {
            "description": "The revoked key, no longer published.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/SigningKey"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/Unauthorized"
          },
          "403": {
            "$ref": "#/components/responses/Forbidden"
          },
          "404": {
            "$ref": "#/components/responses/NotFoundKey"
          },
          "409": {
            "$ref": "#/components/responses/Conflict"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/api/v2/openapi.json": {
      "get": {
        "operationId": "getOpenAPIDocument",
        "summary": "This document",
        "tags": [
          "meta"
        ],
        "security": [],
        "responses": {
          "200": {
            "description": "The OpenAPI 3.1 document.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/OpenAPIDocument"
                }
              }
            }
          }
        }
      }
    },
    "/oauth/token": {
      "post": {
        "operationId": "token",
        "summary": "Token endpoint",
        "tags": [
          "authentication"
        ],
        "description": "Issues tokens (RFC 6749 §3.2). The client authenticates with HTTP Basic (`client_secret_basic`), `client_secret` in the body (`client_secret_post`), a `client_assertion` (`private_key_jwt`), or only `client_id` (public clients).",
        "security": [
          {
            "clientSecretBasic": []
          },
          {}
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/x-www-form-urlencoded": {
              "schema": {
                "$ref": "#/components/schemas/TokenRequest"
              }
            },
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/TokenRequestJSON"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The tokens.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/TokenResponse"
                }
              }
            },
            "headers": {
              "Cache-Control": {
                "required": true,
                "description": "`no-store` (RFC 6749 §5.1).",
                "schema": {
                  "type": "string",
                  "const": "no-store"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/TokenBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/TokenUnauthorized"
          },
          "403": {
            "$ref": "#/components/responses/TokenForbidden"
          },
          "413": {
            "$ref": "#/components/responses/TokenPayloadTooLarge"
          },
          "429": {
            "$ref": "#/components/responses/TokenTooManyRequests"
          },
          "500": {
            "$ref": "#/components/responses/TokenServerError"
          }
        }
      }
    },
    "/oauth/introspect": {
      "post": {
        "operationId": "introspect",
        "summary": "Token introspection",
        "tags": [
          "authentication"
        ],
        "description": "RFC 7662 (SPEC §5.1). The client authenticates as at the token endpoint (its registered method only; an assertion's `aud` may be this endpoint's URL); public clients cannot introspect (401 `invalid_client`). An access token is active only for the client it was issued to or a client with a client grant for one of its audiences (RFC 7662 §2.2); a refresh token only for its client. Anything else, garbage included, is `{\"active\": false}`.",
        "security": [
          {
            "clientSecretBasic": []
          },
          {}
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/x-www-form-urlencoded": {
              "schema": {
                "$ref": "#/components/schemas/IntrospectionRequest"
              }
            },
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/IntrospectionRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "Whether the token is active and, when it is, its claims.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/IntrospectionResponse"
                }
              }
            },
            "headers": {
              "Cache-Control": {
                "required": true,
                "description": "`no-store`.",
                "schema": {
                  "type": "string",
                  "const": "no-store"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/TokenBadRequest"
          },
          "401": {
            "$ref": "#/components/responses/TokenUnauthorized"
          },
          "413": {
            "$ref": "#/components/responses/TokenPayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/TokenServerError"
          }
        }
      }
    },
    "/.well-known/oauth-authorization-server": {
      "get": {
        "operationId": "oauthAuthorizationServerMetadata",
        "summary": "OAuth 2.0 Authorization Server metadata (RFC 8414)",
        "tags": [
          "discovery"
        ],
        "description": "The same document as `/.well-known/openid-configuration`.",
        "responses": {
          "200": {
            "description": "The metadata.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/OpenIDConfiguration"
                }
              }
            }
          }
        }
      }
    },
    "/.well-known/openid-configuration": {
      "get": {
        "operationId": "openidConfiguration",
        "summary": "OpenID Provider metadata",
        "tags": [
          "discovery"
        ],
        "responses": {
          "200": {
            "description": "The metadata.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/OpenIDConfiguration"
                }
              }
            }
          }
        }
      }
    },
    "/.well-known/jwks.json": {
      "get": {
        "operationId": "jwks",
        "summary": "Published public signing keys",
        "tags": [
          "discovery"
        ],
        "description": "Every current and previous (not revoked) key.",
        "responses": {
          "200": {
            "description": "The key set.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/JWKS"
                }
              }
            }
          }
        }
      }
    },
    "/healthz": {
      "get": {
        "operationId": "healthz",
        "summary": "Liveness",
        "tags": [
          "operations"
        ],
        "responses": {
          "200": {
            "description": "The process is up.",
            "content": {
              "application/json": {
                "schema": {
                  "allOf": [
                    {
                      "$ref": "#/components/schemas/HealthStatus"
                    }
                  ],
                  "properties": {
                    "status": {
                      "const": "ok"
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/readyz": {
      "get": {
        "operationId": "readyz",
        "summary": "Readiness",
        "tags": [
          "operations"
        ],
        "responses": {
          "200": {
            "description": "The database answers.",
            "content": {
              "application/json": {
                "schema": {
                  "allOf": [
                    {
                      "$ref": "#/components/schemas/HealthStatus"
                    }
                  ],
                  "properties": {
                    "status": {
                      "const": "ready"
                    }
                  }
                }
              }
            }
          },
          "503": {
            "description": "The database does not answer.",
            "content": {
              "application/json": {
                "schema": {
                  "allOf": [
                    {
                      "$ref": "#/components/schemas/HealthStatus"
                    }
                  ],
                  "properties": {
                    "status": {
                      "const": "database unavailable"
                    }
                  }
                }
              }
            }
          }
        }
      }
    },
    "/appliance-mfa/api/enroll": {
      "post": {
        "operationId": "enrollDevice",
        "summary": "Enrol an authenticator device",
        "tags": [
          "device"
        ],
        "description": "Header `Authorization: Ticket id=\"{ticket_id}\"` (quotes optional) with a ticket of `POST /api/v2/guardian/enrollments/ticket`. Uses the ticket up (single use, 7 days) and stores the device with its public key; `push_credentials` may be absent (the device then gets no push). A refused request (400, 409, 413) leaves the ticket usable. Logs `gd_enrollment_complete`.",
        "security": [
          {
            "enrollmentTicket": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/DeviceEnrollmentRequest"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The device account.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DeviceEnrollmentResponse"
                }
              }
            },
            "headers": {
              "Cache-Control": {
                "required": true,
                "description": "`no-store`: the body carries credentials.",
                "schema": {
                  "type": "string",
                  "const": "no-store"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/DeviceInvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/DeviceUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/EnrollmentTransactionNotFound"
          },
          "409": {
            "$ref": "#/components/responses/AlreadyEnrolled"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/appliance-mfa/api/device-accounts/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The enrolment (device account) id, `dev_…`.",
          "schema": {
            "type": "string"
          }
        }
      ],
      "patch": {
        "operationId": "updateDeviceAccount",
        "summary": "Update the device account",
        "tags": [
          "device"
        ],
        "description": "`Authorization: Bearer {token}` with the device-account `token` of the enrolment, or an RS256 JWT signed by the enrolled device key with `iss` = the enrolment id, `sub` = the user id, `aud` = `{issuer}appliance-mfa/api/device-accounts`, `iat` and `exp` (at most 2 hours later). `push_credentials: null` removes them (no more pushes); new credentials re-enable pushes. Logs `gd_update_device_account`.",
        "security": [
          {
            "deviceAccount": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/DeviceAccountUpdate"
              }
            }
          }
        },
        "responses": {
          "200": {
            "description": "The device account.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DeviceAccount"
                }
              }
            }
          },
          "400": {
            "$ref": "#/components/responses/DeviceInvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/DeviceUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/DeviceAccountNotFound"
          },
          "409": {
            "$ref": "#/components/responses/AlreadyEnrolled"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      },
      "delete": {
        "operationId": "deleteDeviceAccount",
        "summary": "Unenrol the device",
        "tags": [
          "device"
        ],
        "description": "`Authorization: Bearer` with the device-account token or an RS256 JWT signed by the enrolled device key with `iss` = the enrolment id, `sub` = the user id, `aud` = `{issuer}appliance-mfa/api/device-accounts`, `iat` and `exp` (at most 2 hours later). Logs `gd_unenroll`.",
        "security": [
          {
            "deviceAccount": []
          }
        ],
        "responses": {
          "204": {
            "description": "Unenrolled."
          },
          "401": {
            "$ref": "#/components/responses/DeviceUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/DeviceAccountNotFound"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/appliance-mfa/api/device-accounts/{id}/transactions": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The enrolment (device account) id, `dev_…`.",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getDeviceTransactions",
        "summary": "List the device's pending transactions",
        "tags": [
          "device"
        ],
        "description": "Warden extension for devices without APNs/FCM, so a lost push never loses a request: the transactions of this device whose CIBA request waits for an answer, oldest first, each with the notification fields and a fresh transaction token. `Authorization: Bearer` with the device-account token or an RS256 JWT signed by the enrolled device key with `iss` = the enrolment id, `sub` = the user id, `aud` = `{issuer}appliance-mfa/api/device-accounts`, `iat` and `exp` (at most 2 hours later).",
        "security": [
          {
            "deviceAccount": []
          }
        ],
        "responses": {
          "200": {
            "description": "The pending transactions (possibly none).",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/DeviceTransactionList"
                }
              }
            },
            "headers": {
              "Cache-Control": {
                "required": true,
                "description": "`no-store`: the body carries credentials.",
                "schema": {
                  "type": "string",
                  "const": "no-store"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/DeviceUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/DeviceAccountNotFound"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/appliance-mfa/api/resolve-transaction": {
      "post": {
        "operationId": "resolveTransaction",
        "summary": "Allow or reject a transaction",
        "tags": [
          "device"
        ],
        "description": "`Authorization: Bearer {txtkn}` (the transaction token of the notification). `challenge_response` is an RS256 JWT signed by the device key (no `kid`) with `iss` = the device `identifier`, `sub` = the challenge `c`, `aud` = `{issuer}appliance-mfa/api/resolve-transaction`, `iat`, `exp` (at most 60 s after `iat`; both may be fractional), `auth0_guardian_method: \"push\"`, `auth0_guardian_accepted` (`true` allows, `false` rejects) and optionally `auth0_guardian_reason`. The first valid answer from any of the user's devices decides the CIBA request. Logs `gd_auth_succeed` / `gd_auth_rejected`, or `gd_auth_failed` when refused.",
        "security": [
          {
            "transactionToken": []
          }
        ],
        "requestBody": {
          "required": true,
          "content": {
            "application/json": {
              "schema": {
                "$ref": "#/components/schemas/ResolveTransactionRequest"
              }
            }
          }
        },
        "responses": {
          "204": {
            "description": "The answer decided the request."
          },
          "400": {
            "$ref": "#/components/responses/DeviceInvalidBody"
          },
          "401": {
            "$ref": "#/components/responses/DeviceUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/TransactionNotFound"
          },
          "410": {
            "$ref": "#/components/responses/TransactionExpired"
          },
          "413": {
            "$ref": "#/components/responses/PayloadTooLarge"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    },
    "/rich-consents/{id}": {
      "parameters": [
        {
          "name": "id",
          "in": "path",
          "required": true,
          "description": "The consent id: `txlnkid` of the notification (`cns_…`).",
          "schema": {
            "type": "string"
          }
        }
      ],
      "get": {
        "operationId": "getRichConsent",
        "summary": "Consent details of a transaction",
        "tags": [
          "device"
        ],
        "description": "`Authorization: MFA-DPoP {txtkn}` and header `MFA-DPoP: {proof}`, a DPoP proof JWT with header `{\"alg\": \"RS256\", \"typ\": \"dpop+jwt\", \"jwk\": the enrolled public JWK of the device the transaction was sent to}` and claims `htu` (this URL), `htm` `GET`, `ath` (base64url SHA-256 of the txtkn), `jti` (used once) and `iat` (may be fractional). What the device shows before the user allows or rejects. Refusals log `rich_consents_access_error`.",
        "security": [
          {
            "mfaDPoP": [],
            "mfaDPoPProof": []
          }
        ],
        "responses": {
          "200": {
            "description": "The consent.",
            "content": {
              "application/json": {
                "schema": {
                  "$ref": "#/components/schemas/RichConsent"
                }
              }
            },
            "headers": {
              "Cache-Control": {
                "required": true,
                "description": "`no-store`: the body carries credentials.",
                "schema": {
                  "type": "string",
                  "const": "no-store"
                }
              }
            }
          },
          "401": {
            "$ref": "#/components/responses/DeviceUnauthorized"
          },
          "404": {
            "$ref": "#/components/responses/ConsentNotFound"
          },
          "410": {
            "$ref": "#/components/responses/TransactionExpired"
          },
          "500": {
            "$ref": "#/components/responses/ManagementServerError"
          }
        }
      }
    }
  },
  "components": {
    "schemas": {
      "ManagementError": {
        "type": "object",
        "description": "The error body of every Management API failure (and of the authenticator device API).",
        "required": [
          "statusCode",
          "error",
          "message",
          "errorCode"
        ],
        "properties": {
          "statusCode": {
            "type": "integer",
            "description": "The HTTP status, repeated."
          },
          "error": {
            "type": "string",
            "description": "The HTTP reason phrase of the status.",
            "enum": [
              "Bad Request",
              "Unauthorized",
              "Forbidden",
              "Not Found",
              "Conflict",
              "Gone",
              "Payload Too Large",
              "Unsupported Media Type",
              "Too Many Requests",
              "Internal Server Error"
            ]
          },
          "message": {
            "type": "string",
            "description": "What went wrong, for people."
          },
          "errorCode": {
            "type": "string",
            "description": "What went wrong, for programs."
          }
        },
        "examples": [
          {
            "statusCode": 404,
            "error": "Not Found",
            "message": "The client does not exist",
            "errorCode": "inexistent_client"
          }
        ]
      },
      "OAuthError": {
        "type": "object",
        "description": "An Authentication API error (RFC 6749 §5.2). Sent with `Cache-Control: no-store`.",
        "required": [
          "error",
          "error_description"
        ],
        "properties": {
          "error": {
            "type": "string",
            "description": "The error code."
          },
          "error_description": {
            "type": "string",
            "description": "What went wrong, for people."
          },
          "interval": {
            "type": "integer",
            "minimum": 1,
            "description": "With `slow_down` (CIBA polling): the raised polling interval in seconds."
          }
        },
        "examples": [
          {
            "error": "invalid_client",
            "error_description": "Client authentication failed"
          }
        ]
      },
      "ClientCredential": {
        "type": "object",
        "description": "A public key registered for `private_key_jwt`. The PEM is never returned.",
        "required": [
          "id",
          "credential_type"
        ],
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^cred_",
            "description": "The credential id (`cred_…`)."
          },
          "credential_type": {
            "type": "string",
            "const": "public_key"
          },
          "name": {
            "type": "string"
          },
          "alg": {
            "type": "string",
            "enum": [
              "RS256",
              "PS256",
              "ES256"
            ],
            "description": "The one algorithm accepted for this key, when restricted."
          },
          "created_at": {
            "type": "string",
            "format": "date-time",
            "description": "ISO 8601 time in UTC with milliseconds."
          }
        }
      },
      "JWTConfiguration": {
        "type": "object",
        "description": "How ID tokens for this client are signed.",
        "required": [
          "alg",
          "lifetime_in_seconds"
        ],
        "properties": {
          "alg": {
            "type": "string",
            "enum": [
              "RS256",
              "ES256",
              "PS256",
              "EdDSA"
            ],
            "default": "RS256"
          },
          "lifetime_in_seconds": {
            "type": "integer",
            "minimum": 1,
            "maximum": 2592000,
            "default": 36000
          }
        }
      },
      "RefreshTokenConfiguration": {
        "type": "object",
        "required": [
          "rotation_type",
          "expiration_type",
          "token_lifetime",
          "leeway"
        ],
        "properties": {
          "rotation_type": {
            "type": "string",
            "enum": [
              "rotating",
              "non-rotating"
            ],
            "default": "non-rotating"
          },
          "expiration_type": {
            "type": "string",
            "enum": [
              "expiring",
              "non-expiring"
            ],
            "default": "non-expiring"
          },
          "token_lifetime": {
            "type": "integer",
            "minimum": 1,
            "maximum": 31557600,
            "default": 2592000,
            "description": "Seconds."
          },
          "leeway": {
            "type": "integer",
            "minimum": 0,
            "maximum": 60,
            "default": 0,
            "description": "Seconds."
          }
        }
      },
      "SessionTransferConfiguration": {
        "type": "object",
        "description": "Native-to-Web SSO settings (SPEC §8).",
        "required": [
          "can_create_session_transfer_token",
          "allowed_authentication_methods",
          "enforce_device_binding",
          "allow_refresh_token",
          "enforce_cascade_revocation"
        ],
        "properties": {
          "can_create_session_transfer_token": {
            "type": "boolean",
            "default": false
          },
          "allowed_authentication_methods": {
            "type": "array",
            "uniqueItems": true,
            "items": {
              "type": "string",
              "enum": [
                "cookie",
                "query"
              ]
            },
            "default": []
          },
          "enforce_device_binding": {
            "type": "string",
            "enum": [
              "ip",
              "asn",
              "none"
            ],
            "default": "ip"
          },
          "allow_refresh_token": {
            "type": "boolean",
            "default": false
          },
          "enforce_cascade_revocation": {
            "type": "boolean",
            "default": true
          }
        }
      },
      "Client": {
        "type": "object",
        "description": "An application. Never carries a secret (nor its hash) nor a registered PEM.",
        "required": [
          "client_id",
          "name",
          "is_first_party",
          "grant_types",
          "callbacks",
          "allowed_logout_urls",
          "allowed_origins",
          "web_origins",
          "jwt_configuration",
          "refresh_token",
          "client_metadata"
        ],
        "properties": {
          "client_id": {
            "type": "string",
            "description": "Server-generated."
          },
          "name": {
            "type": "string"
          },
          "description": {
            "type": "string"
          },
          "app_type": {
            "type": "string",
            "enum": [
              "native",
              "spa",
              "regular_web",
              "non_interactive"
            ]
          },
          "is_first_party": {
            "type": "boolean",
            "description": "Third-party clients get a consent page."
          },
          "grant_types": {
            "type": "array",
            "uniqueItems": true,
            "items": {
              "type": "string",
              "enum": [
                "client_credentials",
                "authorization_code",
                "refresh_token",
                "urn:openid:params:grant-type:ciba",
                "urn:ietf:params:oauth:grant-type:token-exchange",
                "implicit",
                "password"
              ]
            }
          },
          "callbacks": {
            "type": "array",
            "items": {
              "type": "string",
              "format": "uri",
              "description": "An absolute URL (any scheme) without a fragment."
            }
          },
          "allowed_logout_urls": {
            "type": "array",
            "items": {
              "type": "string",
              "format": "uri",
              "description": "An absolute URL (any scheme) without a fragment."
            }
          },
          "allowed_origins": {
            "type": "array",
            "items": {
              "type": "string",
              "format": "uri",
              "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
              "description": "An absolute http or https URL with a host and without a fragment."
            }
          },
          "web_origins": {
            "type": "array",
            "items": {
              "type": "string",
              "format": "uri",
              "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
              "description": "An absolute http or https URL with a host and without a fragment."
            }
          },
          "initiate_login_uri": {
            "type": "string",
            "format": "uri",
            "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
            "description": "An absolute http or https URL with a host and without a fragment."
          },
          "token_endpoint_auth_method": {
            "type": "string",
            "enum": [
              "none",
              "client_secret_post",
              "client_secret_basic"
            ],
            "description": "Absent when the client authenticates with `private_key_jwt`."
          },
          "client_authentication_methods": {
            "type": "object",
            "required": [
              "private_key_jwt"
            ],
            "properties": {
              "private_key_jwt": {
                "type": "object",
                "required": [
                  "credentials"
                ],
                "properties": {
                  "credentials": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                      "$ref": "#/components/schemas/ClientCredential"
                    }
                  }
                }
              }
            }
          },
          "jwt_configuration": {
            "$ref": "#/components/schemas/JWTConfiguration"
          },
          "refresh_token": {
            "$ref": "#/components/schemas/RefreshTokenConfiguration"
          },
          "session_transfer": {
            "$ref": "#/components/schemas/SessionTransferConfiguration"
          },
          "backchannel_token_delivery_mode": {
            "type": "string",
            "enum": [
              "poll",
              "ping"
            ]
          },
          "backchannel_client_notification_endpoint": {
            "type": "string",
            "format": "uri",
            "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
            "description": "An absolute http or https URL with a host and without a fragment."
          },
          "client_metadata": {
            "type": "object",
            "additionalProperties": {
              "type": "string"
            }
          }
        }
      },
      "ClientWithSecret": {
        "description": "A client with its `client_secret`: the answer of create (for clients that authenticate with a secret) and of rotate-secret; the only times the secret is shown.",
        "allOf": [
          {
            "$ref": "#/components/schemas/Client"
          }
        ],
        "properties": {
          "client_secret": {
            "type": "string",
            "minLength": 32,
            "description": "256 random bits; stored only as a SHA-256 hash."
          }
        }
      },
      "ClientCreated": {
        "description": "The new client; `client_secret` is present when `token_endpoint_auth_method` is `client_secret_post` or `client_secret_basic`.",
        "allOf": [
          {
            "$ref": "#/components/schemas/ClientWithSecret"
          }
        ]
      },
      "ClientSecretRotated": {
        "allOf": [
          {
            "$ref": "#/components/schemas/ClientWithSecret"
          }
        ],
        "required": [
          "client_secret"
        ]
      },
      "ClientCreate": {
        "type": "object",
        "additionalProperties": false,
        "description": "A new client. Unknown properties are refused (400 `invalid_body`); `null` means the default.",
        "required": [
          "name"
        ],
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "pattern": "\\S"
          },
          "description": {
            "type": [
              "string",
              "null"
            ]
          },
          "app_type": {
            "type": [
              "string",
              "null"
            ],
            "enum": [
              "native",
              "spa",
              "regular_web",
              "non_interactive",
              null
            ]
          },
          "is_first_party": {
            "type": [
              "boolean",
              "null"
            ],
            "default": true
          },
          "grant_types": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string",
              "enum": [
                "client_credentials",
                "authorization_code",
                "refresh_token",
                "urn:openid:params:grant-type:ciba",
                "urn:ietf:params:oauth:grant-type:token-exchange",
                "implicit",
                "password"
              ]
            }
          },
          "callbacks": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string",
              "format": "uri",
              "description": "An absolute URL (any scheme) without a fragment."
            }
          },
          "allowed_logout_urls": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string",
              "format": "uri",
              "description": "An absolute URL (any scheme) without a fragment."
            }
          },
          "allowed_origins": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string",
              "format": "uri",
              "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
              "description": "An absolute http or https URL with a host and without a fragment."
            }
          },
          "web_origins": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string",
              "format": "uri",
              "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
              "description": "An absolute http or https URL with a host and without a fragment."
            }
          },
          "initiate_login_uri": {
            "type": [
              "string",
              "null"
            ],
            "format": "uri",
            "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
            "description": "An absolute http or https URL with a host and without a fragment."
          },
          "token_endpoint_auth_method": {
            "type": [
              "string",
              "null"
            ],
            "enum": [
              "none",
              "client_secret_post",
              "client_secret_basic",
              null
            ],
            "default": "client_secret_post",
            "description": "Must be absent or null when `client_authentication_methods.private_key_jwt` is set."
          },
          "client_authentication_methods": {
            "type": [
              "object",
              "null"
            ],
            "additionalProperties": false,
            "properties": {
              "private_key_jwt": {
                "type": [
                  "object",
                  "null"
                ],
                "additionalProperties": false,
                "required": [
                  "credentials"
                ],
                "properties": {
                  "credentials": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                      "oneOf": [
                        {
                          "type": "object",
                          "additionalProperties": false,
                          "required": [
                            "credential_type",
                            "pem"
                          ],
                          "properties": {
                            "credential_type": {
                              "type": "string",
                              "const": "public_key"
                            },
                            "name": {
                              "type": [
                                "string",
                                "null"
                              ]
                            },
                            "pem": {
                              "type": "string",
                              "minLength": 1,
                              "description": "A PEM-encoded RSA or P-256 public key."
                            },
                            "alg": {
                              "type": [
                                "string",
                                "null"
                              ],
                              "enum": [
                                "RS256",
                                "PS256",
                                "ES256",
                                null
                              ]
                            }
                          }
                        },
                        {
                          "type": "object",
                          "additionalProperties": false,
                          "required": [
                            "id"
                          ],
                          "properties": {
                            "id": {
                              "type": "string",
                              "description": "Keeps a key the client already has (PATCH)."
                            }
                          }
                        }
                      ]
                    }
                  }
                }
              }
            }
          },
          "jwt_configuration": {
            "type": [
              "object",
              "null"
            ],
            "additionalProperties": false,
            "properties": {
              "alg": {
                "type": [
                  "string",
                  "null"
                ],
                "enum": [
                  "RS256",
                  "ES256",
                  "PS256",
                  "EdDSA",
                  null
                ]
              },
              "lifetime_in_seconds": {
                "type": [
                  "integer",
                  "null"
                ],
                "minimum": 1,
                "maximum": 2592000
              }
            }
          },
          "refresh_token": {
            "type": [
              "object",
              "null"
            ],
            "additionalProperties": false,
            "properties": {
              "rotation_type": {
                "type": [
                  "string",
                  "null"
                ],
                "enum": [
                  "rotating",
                  "non-rotating",
                  null
                ]
              },
              "expiration_type": {
                "type": [
                  "string",
                  "null"
                ],
                "enum": [
                  "expiring",
                  "non-expiring",
                  null
                ]
              },
              "token_lifetime": {
                "type": [
                  "integer",
                  "null"
                ],
                "minimum": 1,
                "maximum": 31557600
              },
              "leeway": {
                "type": [
                  "integer",
                  "null"
                ],
                "minimum": 0,
                "maximum": 60
              }
            }
          },
          "session_transfer": {
            "type": [
              "object",
              "null"
            ],
            "additionalProperties": false,
            "properties": {
              "can_create_session_transfer_token": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "allowed_authentication_methods": {
                "type": [
                  "array",
                  "null"
                ],
                "items": {
                  "type": "string",
                  "enum": [
                    "cookie",
                    "query"
                  ]
                }
              },
              "enforce_device_binding": {
                "type": [
                  "string",
                  "null"
                ],
                "enum": [
                  "ip",
                  "asn",
                  "none",
                  null
                ]
              },
              "allow_refresh_token": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "enforce_cascade_revocation": {
                "type": [
                  "boolean",
                  "null"
                ]
              }
            }
          },
          "backchannel_token_delivery_mode": {
            "type": [
              "string",
              "null"
            ],
            "enum": [
              "poll",
              "ping",
              null
            ],
            "description": "`ping` needs `backchannel_client_notification_endpoint`."
          },
          "backchannel_client_notification_endpoint": {
            "type": [
              "string",
              "null"
            ],
            "format": "uri",
            "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
            "description": "An absolute http or https URL with a host and without a fragment."
          },
          "client_metadata": {
            "type": [
              "object",
              "null"
            ],
            "additionalProperties": {
              "type": "string"
            }
          }
        }
      },
      "ClientUpdate": {
        "type": "object",
        "additionalProperties": false,
        "description": "The properties to change. `null` resets a property to its default or removes an optional object. Unknown properties are refused (400 `invalid_body`).",
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "pattern": "\\S"
          },
          "description": {
            "type": [
              "string",
              "null"
            ]
          },
          "app_type": {
            "type": [
              "string",
              "null"
            ],
            "enum": [
              "native",
              "spa",
              "regular_web",
              "non_interactive",
              null
            ]
          },
          "is_first_party": {
            "type": [
              "boolean",
              "null"
            ],
            "default": true
          },
          "grant_types": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string",
              "enum": [
                "client_credentials",
                "authorization_code",
                "refresh_token",
                "urn:openid:params:grant-type:ciba",
                "urn:ietf:params:oauth:grant-type:token-exchange",
                "implicit",
                "password"
              ]
            }
          },
          "callbacks": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string",
              "format": "uri",
              "description": "An absolute URL (any scheme) without a fragment."
            }
          },
          "allowed_logout_urls": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string",
              "format": "uri",
              "description": "An absolute URL (any scheme) without a fragment."
            }
          },
          "allowed_origins": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string",
              "format": "uri",
              "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
              "description": "An absolute http or https URL with a host and without a fragment."
            }
          },
          "web_origins": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string",
              "format": "uri",
              "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
              "description": "An absolute http or https URL with a host and without a fragment."
            }
          },
          "initiate_login_uri": {
            "type": [
              "string",
              "null"
            ],
            "format": "uri",
            "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
            "description": "An absolute http or https URL with a host and without a fragment."
          },
          "token_endpoint_auth_method": {
            "type": [
              "string",
              "null"
            ],
            "enum": [
              "none",
              "client_secret_post",
              "client_secret_basic",
              null
            ],
            "default": "client_secret_post",
            "description": "Must be absent or null when `client_authentication_methods.private_key_jwt` is set."
          },
          "client_authentication_methods": {
            "type": [
              "object",
              "null"
            ],
            "additionalProperties": false,
            "properties": {
              "private_key_jwt": {
                "type": [
                  "object",
                  "null"
                ],
                "additionalProperties": false,
                "required": [
                  "credentials"
                ],
                "properties": {
                  "credentials": {
                    "type": "array",
                    "minItems": 1,
                    "items": {
                      "oneOf": [
                        {
                          "type": "object",
                          "additionalProperties": false,
                          "required": [
                            "credential_type",
                            "pem"
                          ],
                          "properties": {
                            "credential_type": {
                              "type": "string",
                              "const": "public_key"
                            },
                            "name": {
                              "type": [
                                "string",
                                "null"
                              ]
                            },
                            "pem": {
                              "type": "string",
                              "minLength": 1,
                              "description": "A PEM-encoded RSA or P-256 public key."
                            },
                            "alg": {
                              "type": [
                                "string",
                                "null"
                              ],
                              "enum": [
                                "RS256",
                                "PS256",
                                "ES256",
                                null
                              ]
                            }
                          }
                        },
                        {
                          "type": "object",
                          "additionalProperties": false,
                          "required": [
                            "id"
                          ],
                          "properties": {
                            "id": {
                              "type": "string",
                              "description": "Keeps a key the client already has (PATCH)."
                            }
                          }
                        }
                      ]
                    }
                  }
                }
              }
            }
          },
          "jwt_configuration": {
            "type": [
              "object",
              "null"
            ],
            "additionalProperties": false,
            "properties": {
              "alg": {
                "type": [
                  "string",
                  "null"
                ],
                "enum": [
                  "RS256",
                  "ES256",
                  "PS256",
                  "EdDSA",
                  null
                ]
              },
              "lifetime_in_seconds": {
                "type": [
                  "integer",
                  "null"
                ],
                "minimum": 1,
                "maximum": 2592000
              }
            }
          },
          "refresh_token": {
            "type": [
              "object",
              "null"
            ],
            "additionalProperties": false,
            "properties": {
              "rotation_type": {
                "type": [
                  "string",
                  "null"
                ],
                "enum": [
                  "rotating",
                  "non-rotating",
                  null
                ]
              },
              "expiration_type": {
                "type": [
                  "string",
                  "null"
                ],
                "enum": [
                  "expiring",
                  "non-expiring",
                  null
                ]
              },
              "token_lifetime": {
                "type": [
                  "integer",
                  "null"
                ],
                "minimum": 1,
                "maximum": 31557600
              },
              "leeway": {
                "type": [
                  "integer",
                  "null"
                ],
                "minimum": 0,
                "maximum": 60
              }
            }
          },
          "session_transfer": {
            "type": [
              "object",
              "null"
            ],
            "additionalProperties": false,
            "properties": {
              "can_create_session_transfer_token": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "allowed_authentication_methods": {
                "type": [
                  "array",
                  "null"
                ],
                "items": {
                  "type": "string",
                  "enum": [
                    "cookie",
                    "query"
                  ]
                }
              },
              "enforce_device_binding": {
                "type": [
                  "string",
                  "null"
                ],
                "enum": [
                  "ip",
                  "asn",
                  "none",
                  null
                ]
              },
              "allow_refresh_token": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "enforce_cascade_revocation": {
                "type": [
                  "boolean",
                  "null"
                ]
              }
            }
          },
          "backchannel_token_delivery_mode": {
            "type": [
              "string",
              "null"
            ],
            "enum": [
              "poll",
              "ping",
              null
            ],
            "description": "`ping` needs `backchannel_client_notification_endpoint`."
          },
          "backchannel_client_notification_endpoint": {
            "type": [
              "string",
              "null"
            ],
            "format": "uri",
            "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
            "description": "An absolute http or https URL with a host and without a fragment."
          },
          "client_metadata": {
            "type": [
              "object",
              "null"
            ],
            "additionalProperties": {
              "type": "string"
            }
          }
        }
      },
      "ResourceServerScope": {
        "type": "object",
        "required": [
          "value"
        ],
        "properties": {
          "value": {
            "type": "string",
            "pattern": "^\\S+$"
          },
          "description": {
            "type": "string"
          }
        }
      },
      "ResourceServer": {
        "type": "object",
        "description": "An API that access tokens are issued for.",
        "required": [
          "id",
          "identifier",
          "name",
          "scopes",
          "token_lifetime",
          "signing_alg",
          "authorization_details",
          "enforce_policies",
          "allow_offline_access",
          "skip_consent_for_verifiable_first_party_clients",
          "is_system"
        ],
        "properties": {
          "id": {
            "type": "string"
          },
          "identifier": {
            "type": "string",
            "description": "The audience of its access tokens."
          },
          "name": {
            "type": "string"
          },
          "scopes": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ResourceServerScope"
            }
          },
          "token_lifetime": {
            "type": "integer",
            "minimum": 1,
            "maximum": 2592000,
            "description": "Seconds."
          },
          "signing_alg": {
            "type": "string",
            "enum": [
              "RS256",
              "ES256",
              "PS256",
              "EdDSA"
            ],
            "description": "Signs its access tokens."
          },
          "authorization_details": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "type"
              ],
              "properties": {
                "type": {
                  "type": "string"
                }
              }
            },
            "description": "Rich Authorization Request types (RFC 9396) the API accepts."
          },
          "enforce_policies": {
            "type": "boolean",
            "description": "RBAC: user-facing flows grant only the scopes the user holds through roles."
          },
          "allow_offline_access": {
            "type": "boolean"
          },
          "skip_consent_for_verifiable_first_party_clients": {
            "type": "boolean"
          },
          "is_system": {
            "type": "boolean",
            "description": "The Management API itself: read-only."
          }
        }
      },
      "ResourceServerCreate": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "identifier"
        ],
        "description": "A new API. Unknown properties are refused (400 `invalid_body`).",
        "properties": {
          "identifier": {
            "type": "string",
            "minLength": 1,
            "maxLength": 600,
            "pattern": "\\S"
          },
          "name": {
            "type": [
              "string",
              "null"
            ]
          },
          "scopes": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "value"
              ],
              "properties": {
                "value": {
                  "type": "string",
                  "pattern": "^\\S+$"
                },
                "description": {
                  "type": [
                    "string",
                    "null"
                  ]
                }
              }
            },
            "description": "Values unique and without spaces."
          },
          "token_lifetime": {
            "type": [
              "integer",
              "null"
            ],
            "minimum": 1,
            "maximum": 2592000,
            "default": 86400
          },
          "signing_alg": {
            "type": [
              "string",
              "null"
            ],
            "enum": [
              "RS256",
              "ES256",
              "PS256",
              "EdDSA",
              null
            ],
            "default": "RS256"
          },
          "authorization_details": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "type"
              ],
              "properties": {
                "type": {
                  "type": "string",
                  "minLength": 1,
                  "pattern": "\\S"
                }
              }
            }
          },
          "enforce_policies": {
            "type": [
              "boolean",
              "null"
            ],
            "default": false
          },
          "allow_offline_access": {
            "type": [
              "boolean",
              "null"
            ],
            "default": false
          },
          "skip_consent_for_verifiable_first_party_clients": {
            "type": [
              "boolean",
              "null"
            ],
            "default": true
          }
        }
      },
      "ResourceServerUpdate": {
        "type": "object",
        "additionalProperties": false,
        "description": "The properties to change (the identifier cannot change); `null` resets one to its default.",
        "properties": {
          "name": {
            "type": [
              "string",
              "null"
            ]
          },
          "scopes": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "value"
              ],
              "properties": {
                "value": {
                  "type": "string",
                  "pattern": "^\\S+$"
                },
                "description": {
                  "type": [
                    "string",
                    "null"
                  ]
                }
              }
            },
            "description": "Values unique and without spaces."
          },
          "token_lifetime": {
            "type": [
              "integer",
              "null"
            ],
            "minimum": 1,
            "maximum": 2592000,
            "default": 86400
          },
          "signing_alg": {
            "type": [
              "string",
              "null"
            ],
            "enum": [
              "RS256",
              "ES256",
              "PS256",
              "EdDSA",
              null
            ],
            "default": "RS256"
          },
          "authorization_details": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "type"
              ],
              "properties": {
                "type": {
                  "type": "string",
                  "minLength": 1,
                  "pattern": "\\S"
                }
              }
            }
          },
          "enforce_policies": {
            "type": [
              "boolean",
              "null"
            ],
            "default": false
          },
          "allow_offline_access": {
            "type": [
              "boolean",
              "null"
            ],
            "default": false
          },
          "skip_consent_for_verifiable_first_party_clients": {
            "type": [
              "boolean",
              "null"
            ],
            "default": true
          }
        }
      },
      "ClientGrant": {
        "type": "object",
        "description": "Which scopes of an API a client may obtain with `client_credentials`.",
        "required": [
          "id",
          "client_id",
          "audience",
          "scope"
        ],
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^cgr_"
          },
          "client_id": {
            "type": "string"
          },
          "audience": {
            "type": "string",
            "description": "The API identifier."
          },
          "scope": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        }
      },
      "ClientGrantCreate": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "client_id",
          "audience",
          "scope"
        ],
        "properties": {
          "client_id": {
            "type": "string",
            "minLength": 1,
            "pattern": "\\S"
          },
          "audience": {
            "type": "string",
            "minLength": 1,
            "pattern": "\\S",
            "description": "The identifier of a registered API."
          },
          "scope": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "description": "Scopes the API defines."
          }
        }
      },
      "ClientGrantUpdate": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "scope"
        ],
        "properties": {
          "scope": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "description": "Scopes the API defines."
          }
        }
      },
      "UserIdentity": {
        "type": "object",
        "required": [
          "connection",
          "provider",
          "isSocial",
          "user_id"
        ],
        "properties": {
          "connection": {
            "type": "string",
            "const": "Username-Password-Authentication"
          },
          "provider": {
            "type": "string",
            "const": "auth0"
          },
          "isSocial": {
            "type": "boolean",
            "const": false
          },
          "user_id": {
            "type": "string",
            "description": "The user id without its `provider|` prefix."
          }
        }
      },
      "User": {
        "type": "object",
        "description": "A user of the one database connection. Never carries the password (nor its hash).",
        "required": [
          "user_id",
          "email_verified",
          "user_metadata",
          "app_metadata",
          "blocked",
          "created_at",
          "updated_at",
          "logins_count",
          "identities"
        ],
        "properties": {
          "user_id": {
            "type": "string",
            "examples": [
              "auth0|5f7c8ec7c33c6c004bbafe82"
            ]
          },
          "email": {
            "type": "string",
            "format": "email",
            "description": "Lower-cased."
          },
          "email_verified": {
            "type": "boolean"
          },
          "name": {
            "type": "string"
          },
          "nickname": {
            "type": "string"
          },
          "picture": {
            "type": "string",
            "format": "uri"
          },
          "user_metadata": {
            "type": "object"
          },
          "app_metadata": {
            "type": "object"
          },
          "blocked": {
            "type": "boolean"
          },
          "created_at": {
            "type": "string",
            "format": "date-time",
            "description": "ISO 8601 time in UTC with milliseconds."
          },
          "updated_at": {
            "type": "string",
            "format": "date-time",
            "description": "ISO 8601 time in UTC with milliseconds."
          },
          "last_login": {
            "type": "string",
            "format": "date-time",
            "description": "ISO 8601 time in UTC with milliseconds."
          },
          "logins_count": {
            "type": "integer",
            "minimum": 0
          },
          "identities": {
            "type": "array",
            "minItems": 1,
            "maxItems": 1,
            "items": {
              "$ref": "#/components/schemas/UserIdentity"
            }
          }
        }
      },
      "UserCreate": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "email"
        ],
        "description": "A new user. Unknown properties are refused (400 `invalid_body`).",
        "properties": {
          "user_id": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 1,
            "maxLength": 255,
            "pattern": "^\\S+$",
            "description": "Prefixed with `auth0|` unless it contains `|`; generated when absent."
          },
          "email": {
            "type": "string",
            "format": "email",
            "maxLength": 254,
            "pattern": "^[^@\\s]+@[^@\\s]*\\.[^@\\s]*$"
          },
          "email_verified": {
            "type": [
              "boolean",
              "null"
            ],
            "default": false
          },
          "password": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 8,
            "maxLength": 72,
            "description": "8 to 72 bytes (UTF-8); stored as a bcrypt hash."
          },
          "name": {
            "type": [
              "string",
              "null"
            ]
          },
          "nickname": {
            "type": [
              "string",
              "null"
            ]
          },
          "picture": {
            "type": [
              "string",
              "null"
            ],
            "format": "uri",
            "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
            "description": "An absolute http or https URL with a host and without a fragment."
          },
          "user_metadata": {
            "type": [
              "object",
              "null"
            ],
            "description": "Merged one level deep into the stored object: a `null` member removes that key; `{}` or `null` clears the object."
          },
          "app_metadata": {
            "type": [
              "object",
              "null"
            ],
            "description": "Merged as `user_metadata`."
          },
          "blocked": {
            "type": [
              "boolean",
              "null"
            ],
            "default": false
          },
          "connection": {
            "type": [
              "string",
              "null"
            ],
            "const": "Username-Password-Authentication",
            "description": "The one database connection."
          }
        }
      },
      "UserUpdate": {
        "type": "object",
        "additionalProperties": false,
        "description": "The properties to change. Unknown properties are refused (400 `invalid_body`).",
        "properties": {
          "email": {
            "type": "string",
            "format": "email",
            "maxLength": 254,
            "pattern": "^[^@\\s]+@[^@\\s]*\\.[^@\\s]*$"
          },
          "email_verified": {
            "type": [
              "boolean",
              "null"
            ],
            "default": false
          },
          "password": {
            "type": [
              "string",
              "null"
            ],
            "minLength": 8,
            "maxLength": 72,
            "description": "8 to 72 bytes (UTF-8); stored as a bcrypt hash."
          },
          "name": {
            "type": [
              "string",
              "null"
            ]
          },
          "nickname": {
            "type": [
              "string",
              "null"
            ]
          },
          "picture": {
            "type": [
              "string",
              "null"
            ],
            "format": "uri",
            "pattern": "^[Hh][Tt][Tt][Pp][Ss]?://[^#]+$",
            "description": "An absolute http or https URL with a host and without a fragment."
          },
          "user_metadata": {
            "type": [
              "object",
              "null"
            ],
            "description": "Merged one level deep into the stored object: a `null` member removes that key; `{}` or `null` clears the object."
          },
          "app_metadata": {
            "type": [
              "object",
              "null"
            ],
            "description": "Merged as `user_metadata`."
          },
          "blocked": {
            "type": [
              "boolean",
              "null"
            ],
            "default": false
          },
          "connection": {
            "type": [
              "string",
              "null"
            ],
            "const": "Username-Password-Authentication",
            "description": "The one database connection."
          }
        }
      },
      "Role": {
        "type": "object",
        "required": [
          "id",
          "name"
        ],
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^rol_"
          },
          "name": {
            "type": "string"
          },
          "description": {
            "type": "string"
          }
        }
      },
      "RoleCreate": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "name"
        ],
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "pattern": "\\S"
          },
          "description": {
            "type": [
              "string",
              "null"
            ]
          }
        }
      },
      "RoleUpdate": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "pattern": "\\S"
          },
          "description": {
            "type": [
              "string",
              "null"
            ]
          }
        }
      },
      "Permission": {
        "type": "object",
        "description": "An API permission (scope) held by a role.",
        "required": [
          "resource_server_identifier",
          "permission_name"
        ],
        "properties": {
          "resource_server_identifier": {
            "type": "string"
          },
          "permission_name": {
            "type": "string"
          },
          "resource_server_name": {
            "type": "string"
          },
          "description": {
            "type": "string",
            "description": "The scope's description on its API, when it has one."
          }
        }
      },
      "PermissionsBody": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "permissions"
        ],
        "properties": {
          "permissions": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": [
                "resource_server_identifier",
                "permission_name"
              ],
              "properties": {
                "resource_server_identifier": {
                  "type": "string",
                  "minLength": 1,
                  "pattern": "\\S"
                },
                "permission_name": {
                  "type": "string",
                  "minLength": 1,
                  "pattern": "\\S"
                }
              }
            },
            "description": "Each a scope its API defines (checked when adding)."
          }
        }
      },
      "UserRolesBody": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "roles"
        ],
        "properties": {
          "roles": {
            "type": "array",
            "minItems": 1,
            "items": {
              "type": "string"
            },
            "description": "Ids of existing roles."
          }
        }
      },
      "PostLoginRule": {
        "type": "object",
        "description": "A post-login rule (SPEC §8): on every login (password, SSO session, session transfer) the enabled rules run in `order`; the first whose condition holds denies the login with `access_denied` and its `deny_reason`.",
        "required": [
          "id",
          "name",
          "enabled",
          "order",
          "condition",
          "deny_reason"
        ],
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^plr_"
          },
          "name": {
            "type": "string"
          },
          "enabled": {
            "type": "boolean"
          },
          "order": {
            "type": "integer",
            "minimum": 0
          },
          "condition": {
            "type": "string"
          },
          "deny_reason": {
            "type": "string"
          }
        }
      },
      "PostLoginRuleCreate": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "name",
          "condition",
          "deny_reason"
        ],
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 1000,
            "pattern": "\\S"
          },
          "enabled": {
            "type": "boolean",
            "default": true
          },
          "order": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2147483647,
            "description": "Enabled rules run in ascending order, ties by creation. Default on create: one more than the highest order (1 for the first rule)."
          },
          "condition": {
            "type": "string",
            "minLength": 1,
            "maxLength": 4096,
            "pattern": "\\S",
            "description": "An expression over the login event (SPEC §8). Paths: `event.request.ip|asn|user_agent|geoip.countryCode`, `event.session_transfer_token` and its `client_id|scope|request.ip|request.asn|request.user_agent|request.geoip.countryCode`, `event.user.user_id|email|email_verified|app_metadata.*|user_metadata.*`, `event.client.client_id|name|app_type`. Literals: double-quoted strings (JSON escapes), numbers, `true`, `false`, `null`, arrays of literals such as `[\"US\",\"DE\"]`. Operators: `==`, `!=`, `in` (an array or a path on the right), `&&`, `||`, `!`, parentheses, `exists(path)`; `!` binds tightest, then `==`/`!=`/`in`, then `&&`, then `||`. A missing path is `null`; values of different types are neither equal nor different; `!`, `&&` and `||` take anything but `true` as false. At most 4096 characters and 32 nested parentheses and negations. A condition that does not parse is refused with 400 `invalid_body` naming the position, e.g. `expected ')' at position 17`."
          },
          "deny_reason": {
            "type": "string",
            "minLength": 1,
            "maxLength": 1000,
            "pattern": "\\S",
            "description": "The `error_description` of the `access_denied` error redirect that ends a denied login."
          }
        }
      },
      "PostLoginRuleUpdate": {
        "type": "object",
        "additionalProperties": false,
        "description": "The properties to change; none may be `null`.",
        "properties": {
          "name": {
            "type": "string",
            "minLength": 1,
            "maxLength": 1000,
            "pattern": "\\S"
          },
          "enabled": {
            "type": "boolean"
          },
          "order": {
            "type": "integer",
            "minimum": 0,
            "maximum": 2147483647
          },
          "condition": {
            "type": "string",
            "minLength": 1,
            "maxLength": 4096,
            "pattern": "\\S",
            "description": "An expression over the login event (SPEC §8). Paths: `event.request.ip|asn|user_agent|geoip.countryCode`, `event.session_transfer_token` and its `client_id|scope|request.ip|request.asn|request.user_agent|request.geoip.countryCode`, `event.user.user_id|email|email_verified|app_metadata.*|user_metadata.*`, `event.client.client_id|name|app_type`. Literals: double-quoted strings (JSON escapes), numbers, `true`, `false`, `null`, arrays of literals such as `[\"US\",\"DE\"]`. Operators: `==`, `!=`, `in` (an array or a path on the right), `&&`, `||`, `!`, parentheses, `exists(path)`; `!` binds tightest, then `==`/`!=`/`in`, then `&&`, then `||`. A missing path is `null`; values of different types are neither equal nor different; `!`, `&&` and `||` take anything but `true` as false. At most 4096 characters and 32 nested parentheses and negations. A condition that does not parse is refused with 400 `invalid_body` naming the position, e.g. `expected ')' at position 17`."
          },
          "deny_reason": {
            "type": "string",
            "minLength": 1,
            "maxLength": 1000,
            "pattern": "\\S",
            "description": "The `error_description` of the `access_denied` error redirect that ends a denied login."
          }
        }
      },
      "LogEvent": {
        "type": "object",
        "description": "One event of the tenant log; absent fields are left out.",
        "required": [
          "log_id",
          "date",
          "type"
        ],
        "properties": {
          "log_id": {
            "type": "string"
          },
          "date": {
            "type": "string",
            "format": "date-time",
            "description": "ISO 8601 time in UTC with milliseconds."
          },
          "type": {
            "type": "string",
            "enum": [
              "s",
              "f",
              "fp",
              "fu",
              "limit_wc",
              "seacft",
              "feacft",
              "seccft",
              "feccft",
              "sertft",
              "fertft",
              "srrt",
              "slo",
              "sapi",
              "fapi",
              "gd_enrollment_complete",
              "gd_send_pn",
              "gd_send_pn_failure",
              "gd_send_email",
              "gd_auth_succeed",
              "gd_auth_rejected",
              "gd_auth_failed",
              "gd_unenroll",
              "gd_update_device_account",
              "rich_consents_access_error",
              "ferrt",
              "ciba_start_succeeded",
              "ciba_start_failed",
              "ciba_exchange_succeeded",
              "ciba_exchange_failed"
            ],
            "description": "The event type code (SPEC §10)."
          },
          "description": {
            "type": "string"
          },
          "client_id": {
            "type": "string"
          },
          "client_name": {
            "type": "string"
          },
          "ip": {
            "type": "string"
          },
          "user_agent": {
            "type": "string"
          },
          "user_id": {
            "type": "string"
          },
          "user_name": {
            "type": "string"
          },
          "audience": {
            "type": "string"
          },
          "scope": {
            "type": "string"
          },
          "details": {
            "type": "object",
            "description": "Event-specific detail (for `sapi`/`fapi`: the request method and path and the response status)."
          }
        }
      },
      "JWK": {
        "type": "object",
        "description": "A public signing key (RFC 7517); never private members.",
        "required": [
          "kty",
          "kid",
          "use",
          "alg"
        ],
        "properties": {
          "kty": {
            "type": "string",
            "enum": [
              "RSA",
              "EC",
              "OKP"
            ]
          },
          "kid": {
            "type": "string"
          },
          "use": {
            "type": "string",
            "const": "sig"
          },
          "alg": {
            "type": "string",
            "enum": [
              "RS256",
              "ES256",
              "PS256",
              "EdDSA"
            ]
          },
          "n": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+$"
          },
          "e": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+$"
          },
          "crv": {
            "type": "string",
            "enum": [
              "P-256",
              "Ed25519"
            ]
          },
          "x": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+$"
          },
          "y": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+$"
          }
        },
        "allOf": [
          {
            "if": {
              "properties": {
                "kty": {
                  "const": "RSA"
                }
              }
            },
            "then": {
              "required": [
                "n",
                "e"
              ],
              "properties": {
                "alg": {
                  "enum": [
                    "RS256",
                    "PS256"
                  ]
                }
              }
            }
          },
          {
            "if": {
              "properties": {
                "kty": {
                  "const": "EC"
                }
              }
            },
            "then": {
              "required": [
                "crv",
                "x",
                "y"
              ],
              "properties": {
                "alg": {
                  "const": "ES256"
                },
                "crv": {
                  "const": "P-256"
                }
              }
            }
          },
          {
            "if": {
              "properties": {
                "kty": {
                  "const": "OKP"
                }
              }
            },
            "then": {
              "required": [
                "crv",
                "x"
              ],
              "properties": {
                "alg": {
                  "const": "EdDSA"
                },
                "crv": {
                  "const": "Ed25519"
                }
              }
            }
          }
        ]
      },
      "JWKS": {
        "type": "object",
        "required": [
          "keys"
        ],
        "properties": {
          "keys": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/JWK"
            }
          }
        }
      },
      "SigningKey": {
        "type": "object",
        "description": "A signing key and its lifecycle (public part only).",
        "required": [
          "kid",
          "alg",
          "current",
          "previous",
          "revoked",
          "jwk",
          "cert",
          "fingerprint",
          "thumbprint"
        ],
        "properties": {
          "kid": {
            "type": "string"
          },
          "alg": {
            "type": "string",
            "enum": [
              "RS256",
              "ES256",
              "PS256",
              "EdDSA"
            ]
          },
          "current": {
            "type": "boolean",
            "description": "The key that signs new tokens of its algorithm."
          },
          "previous": {
            "type": "boolean",
            "description": "No longer current, still published until revoked."
          },
          "revoked": {
            "type": "boolean",
            "description": "No longer published."
          },
          "current_since": {
            "type": "string",
            "format": "date-time",
            "description": "ISO 8601 time in UTC with milliseconds."
          },
          "revoked_at": {
            "type": "string",
            "format": "date-time",
            "description": "ISO 8601 time in UTC with milliseconds."
          },
          "jwk": {
            "$ref": "#/components/schemas/JWK"
          },
          "cert": {
            "type": "string",
            "pattern": "^-----BEGIN PUBLIC KEY-----",
            "description": "The PEM public key (Warden's keys have no certificate)."
          },
          "fingerprint": {
            "type": "string",
            "pattern": "^[0-9A-F]{2}(:[0-9A-F]{2}){19}$",
            "description": "SHA-1 of the DER public key, colon-separated hex."
          },
          "thumbprint": {
            "type": "string",
            "pattern": "^[0-9A-F]{40}$",
            "description": "SHA-1 of the DER public key, hex."
          }
        }
      },
      "SigningKeyRotation": {
        "description": "The new RS256 key (or the first new key), with every key the rotation made in `keys`.",
        "allOf": [
          {
            "$ref": "#/components/schemas/SigningKey"
          }
        ],
        "required": [
          "keys"
        ],
        "properties": {
          "keys": {
            "type": "array",
            "minItems": 1,
            "items": {
              "$ref": "#/components/schemas/SigningKey"
            }
          }
        }
      },
      "GuardianEnrollment": {
        "type": "object",
        "description": "An authenticator enrolment as the Management API shows it (that vendor's Guardian enrollment object).",
        "additionalProperties": false,
        "required": [
          "id",
          "status",
          "type",
          "name",
          "identifier",
          "auth_method",
          "enrolled_at"
        ],
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^dev_"
          },
          "status": {
            "type": "string",
            "const": "confirmed"
          },
          "type": {
            "type": "string",
            "enum": [
              "pn",
              "totp"
            ],
            "description": "`pn` when the device enrolled with push credentials, else `totp`."
          },
          "name": {
            "type": "string"
          },
          "identifier": {
            "type": "string",
            "description": "The device's own identifier."
          },
          "auth_method": {
            "type": "string",
            "const": "guardian"
          },
          "enrolled_at": {
            "type": "string",
            "format": "date-time",
            "description": "ISO 8601 time in UTC with milliseconds."
          },
          "push_service": {
            "type": "string",
            "enum": [
              "APNS",
              "GCM",
              "FCM",
              "STREAM",
              "WEBHOOK"
            ]
          },
          "push_disabled": {
            "type": "boolean",
            "description": "The provider refused the push token; pushes are skipped until the device sends new credentials."
          }
        },
        "if": {
          "properties": {
            "type": {
              "const": "pn"
            }
          }
        },
        "then": {
          "required": [
            "push_service",
            "push_disabled"
          ]
        },
        "else": {
          "not": {
            "anyOf": [
              {
                "required": [
                  "push_service"
                ]
              },
              {
                "required": [
                  "push_disabled"
                ]
              }
            ]
          }
        }
      },
      "PushCredentials": {
        "type": "object",
        "description": "Where the device's pushes go (SPEC §6.3): `APNS`, `FCM` (`GCM` is its old name), or Warden's own channels `STREAM` (the device's WebSocket) and `WEBHOOK` (`WARDEN_PUSH_WEBHOOK_URL`). `service` is matched case-insensitively and answered upper-case.",
        "additionalProperties": false,
        "required": [
          "service",
          "token"
        ],
        "properties": {
          "service": {
            "type": "string",
            "enum": [
              "APNS",
              "GCM",
              "FCM",
              "STREAM",
              "WEBHOOK"
            ]
          },
          "token": {
            "type": "string",
            "minLength": 1,
            "maxLength": 4096,
            "description": "The provider's device token (APNs device token, FCM registration token, …)."
          }
        }
      },
      "DevicePublicKey": {
        "type": "object",
        "description": "The device's RSA public key (at least 2048 bits) as a JWK; `n` and `e` may carry a leading zero byte.",
        "required": [
          "kty",
          "n",
          "e"
        ],
        "properties": {
          "kty": {
            "type": "string",
            "const": "RSA"
          },
          "use": {
            "type": "string",
            "const": "sig"
          },
          "alg": {
            "type": "string",
            "const": "RS256"
          },
          "n": {
            "type": "string",
            "description": "base64url modulus."
          },
          "e": {
            "type": "string",
            "description": "base64url exponent."
          }
        }
      },
      "DeviceEnrollmentRequest": {
        "type": "object",
        "required": [
          "identifier",
          "name",
          "public_key"
        ],
        "properties": {
          "identifier": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256,
            "description": "The device's own identifier (unique per user); `iss` of its challenge responses."
          },
          "name": {
            "type": "string",
            "description": "A display name."
          },
          "push_credentials": {
            "anyOf": [
              {
                "$ref": "#/components/schemas/PushCredentials"
              },
              {
                "type": "null"
              }
            ]
          },
          "public_key": {
            "$ref": "#/components/schemas/DevicePublicKey"
          }
        }
      },
      "DeviceEnrollmentResponse": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "id",
          "url",
          "issuer",
          "user_id",
          "token",
          "totp"
        ],
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^dev_",
            "description": "The enrolment (device account) id."
          },
          "url": {
            "type": "string",
            "format": "uri",
            "description": "`{issuer}appliance-mfa`."
          },
          "issuer": {
            "type": "string",
            "description": "The issuer label shown by authenticator apps."
          },
          "user_id": {
            "type": "string"
          },
          "token": {
            "type": "string",
            "description": "The device-account token (a Bearer credential of the device-account operations)."
          },
          "totp": {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "secret",
              "algorithm",
              "digits",
              "period"
            ],
            "properties": {
              "secret": {
                "type": "string",
                "pattern": "^[A-Z2-7]+=*$",
                "description": "Base32."
              },
              "algorithm": {
                "type": "string",
                "const": "sha1"
              },
              "digits": {
                "type": "integer",
                "const": 6
              },
              "period": {
                "type": "integer",
                "const": 30
              }
            }
          }
        }
      },
      "DeviceAccount": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "id",
          "identifier",
          "name",
          "push_credentials"
        ],
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^dev_"
          },
          "identifier": {
            "type": "string"
          },
          "name": {
            "type": "string"
          },
          "push_credentials": {
            "anyOf": [
              {
                "$ref": "#/components/schemas/PushCredentials"
              },
              {
                "type": "null"
              }
            ],
            "description": "`null` when the device has none."
          }
        }
      },
      "DeviceAccountUpdate": {
        "type": "object",
        "additionalProperties": false,
        "properties": {
          "identifier": {
            "type": "string",
            "minLength": 1,
            "maxLength": 256
          },
          "name": {
            "type": "string"
          },
          "push_credentials": {
            "anyOf": [
              {
                "$ref": "#/components/schemas/PushCredentials"
              },
              {
                "type": "null"
              }
            ],
            "description": "`null` removes them."
          }
        }
      },
      "DeviceTransaction": {
        "type": "object",
        "description": "The notification fields of one transaction (SPEC §7.2): one per (CIBA request, device).",
        "additionalProperties": false,
        "required": [
          "dai",
          "txtkn",
          "c",
          "d",
          "sh",
          "txlnkid"
        ],
        "properties": {
          "dai": {
            "type": "string",
            "pattern": "^dev_",
            "description": "The enrolment (device account) id."
          },
          "txtkn": {
            "type": "string",
            "description": "The transaction token: `Bearer` of resolve-transaction and `MFA-DPoP` of the consent fetch, until the request is answered or expires."
          },
          "c": {
            "type": "string",
            "description": "The challenge (`sub` of the challenge response)."
          },
          "d": {
            "type": "string",
            "format": "date-time",
            "pattern": "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$",
            "description": "The request's start, `yyyy-MM-dd'T'HH:mm:ss.SSS'Z'` UTC."
          },
          "sh": {
            "type": "string",
            "description": "The issuer host, with `:port` when not the default."
          },
          "txlnkid": {
            "type": "string",
            "pattern": "^cns_",
            "description": "The consent id."
          },
          "s": {
            "type": "object",
            "description": "The request's source, when known.",
            "properties": {
              "b": {
                "type": "object",
                "properties": {
                  "n": {
                    "type": "string"
                  },
                  "v": {
                    "type": "string"
                  }
                }
              },
              "os": {
                "type": "object",
                "properties": {
                  "n": {
                    "type": "string"
                  },
                  "v": {
                    "type": "string"
                  }
                }
              }
            }
          },
          "l": {
            "type": "object",
            "description": "The request's location, when known.",
            "properties": {
              "n": {
                "type": "string"
              },
              "lat": {
                "type": "string"
              },
              "long": {
                "type": "string"
              }
            }
          }
        }
      },
      "DeviceTransactionList": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "transactions"
        ],
        "properties": {
          "transactions": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/DeviceTransaction"
            }
          }
        }
      },
      "ResolveTransactionRequest": {
        "type": "object",
        "required": [
          "challenge_response"
        ],
        "properties": {
          "challenge_response": {
            "type": "string",
            "pattern": "^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$",
            "description": "The compact RS256 JWS of the answer."
          }
        }
      },
      "RichConsent": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "id",
          "requested_details",
          "created_at",
          "expires_at"
        ],
        "properties": {
          "id": {
            "type": "string",
            "pattern": "^cns_"
          },
          "requested_details": {
            "type": "object",
            "additionalProperties": false,
            "required": [
              "audience",
              "scope",
              "binding_message",
              "authorization_details"
            ],
            "properties": {
              "audience": {
                "type": "string",
                "description": "The requested API (the userinfo audience when none was)."
              },
              "scope": {
                "type": "array",
                "items": {
                  "type": "string"
                },
                "description": "Filtered to what the user's roles allow when the API enforces RBAC."
              },
              "binding_message": {
                "type": "string"
              },
              "authorization_details": {
                "type": "array",
                "description": "As requested (RFC 9396); empty when none were.",
                "items": {
                  "type": "object",
                  "required": [
                    "type"
                  ],
                  "properties": {
                    "type": {
                      "type": "string"
                    }
                  },
                  "additionalProperties": true
                }
              }
            }
          },
          "created_at": {
            "type": "string",
            "format": "date-time",
            "description": "ISO 8601 time in UTC with milliseconds."
          },
          "expires_at": {
            "type": "string",
            "format": "date-time",
            "description": "ISO 8601 time in UTC with milliseconds."
          }
        }
      },
      "ClientPage": {
        "type": "object",
        "description": "A page of clients with totals (`include_totals=true`).",
        "required": [
          "start",
          "limit",
          "length",
          "total",
          "clients"
        ],
        "properties": {
          "start": {
            "type": "integer",
            "minimum": 0,
            "description": "Index of the first item (page × per_page)."
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "description": "per_page."
          },
          "length": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in this page."
          },
          "total": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in all pages."
          },
          "clients": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Client"
            }
          }
        }
      },
      "ClientList": {
        "description": "A bare array of clients, or with `include_totals=true` the page wrapper.",
        "oneOf": [
          {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Client"
            }
          },
          {
            "$ref": "#/components/schemas/ClientPage"
          }
        ]
      },
      "ResourceServerPage": {
        "type": "object",
        "description": "A page of resource_servers with totals (`include_totals=true`).",
        "required": [
          "start",
          "limit",
          "length",
          "total",
          "resource_servers"
        ],
        "properties": {
          "start": {
            "type": "integer",
            "minimum": 0,
            "description": "Index of the first item (page × per_page)."
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "description": "per_page."
          },
          "length": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in this page."
          },
          "total": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in all pages."
          },
          "resource_servers": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ResourceServer"
            }
          }
        }
      },
      "ResourceServerList": {
        "description": "A bare array of resource_servers, or with `include_totals=true` the page wrapper.",
        "oneOf": [
          {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ResourceServer"
            }
          },
          {
            "$ref": "#/components/schemas/ResourceServerPage"
          }
        ]
      },
      "ClientGrantPage": {
        "type": "object",
        "description": "A page of client_grants with totals (`include_totals=true`).",
        "required": [
          "start",
          "limit",
          "length",
          "total",
          "client_grants"
        ],
        "properties": {
          "start": {
            "type": "integer",
            "minimum": 0,
            "description": "Index of the first item (page × per_page)."
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "description": "per_page."
          },
          "length": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in this page."
          },
          "total": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in all pages."
          },
          "client_grants": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ClientGrant"
            }
          },
          "next": {
            "type": "string",
            "description": "With `from`/`take` paging: the `from` of the next page, when there is one."
          }
        }
      },
      "ClientGrantList": {
        "description": "A bare array of client_grants, or with `include_totals=true` the page wrapper.",
        "oneOf": [
          {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/ClientGrant"
            }
          },
          {
            "$ref": "#/components/schemas/ClientGrantPage"
          }
        ]
      },
      "UserPage": {
        "type": "object",
        "description": "A page of users with totals (`include_totals=true`).",
        "required": [
          "start",
          "limit",
          "length",
          "total",
          "users"
        ],
        "properties": {
          "start": {
            "type": "integer",
            "minimum": 0,
            "description": "Index of the first item (page × per_page)."
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "description": "per_page."
          },
          "length": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in this page."
          },
          "total": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in all pages."
          },
          "users": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/User"
            }
          }
        }
      },
      "UserList": {
        "description": "A bare array of users, or with `include_totals=true` the page wrapper.",
        "oneOf": [
          {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/User"
            }
          },
          {
            "$ref": "#/components/schemas/UserPage"
          }
        ]
      },
      "RolePage": {
        "type": "object",
        "description": "A page of roles with totals (`include_totals=true`).",
        "required": [
          "start",
          "limit",
          "length",
          "total",
          "roles"
        ],
        "properties": {
          "start": {
            "type": "integer",
            "minimum": 0,
            "description": "Index of the first item (page × per_page)."
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "description": "per_page."
          },
          "length": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in this page."
          },
          "total": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in all pages."
          },
          "roles": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Role"
            }
          }
        }
      },
      "RoleList": {
        "description": "A bare array of roles, or with `include_totals=true` the page wrapper.",
        "oneOf": [
          {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Role"
            }
          },
          {
            "$ref": "#/components/schemas/RolePage"
          }
        ]
      },
      "PostLoginRulePage": {
        "type": "object",
        "description": "A page of post-login rules with totals (`include_totals=true`).",
        "required": [
          "start",
          "limit",
          "length",
          "total",
          "post_login_rules"
        ],
        "properties": {
          "start": {
            "type": "integer",
            "minimum": 0,
            "description": "Index of the first item (page × per_page)."
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "description": "per_page."
          },
          "length": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in this page."
          },
          "total": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in all pages."
          },
          "post_login_rules": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PostLoginRule"
            }
          }
        }
      },
      "PostLoginRuleList": {
        "description": "A bare array of post-login rules in run order, or with `include_totals=true` the page wrapper.",
        "oneOf": [
          {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/PostLoginRule"
            }
          },
          {
            "$ref": "#/components/schemas/PostLoginRulePage"
          }
        ]
      },
      "PermissionPage": {
        "type": "object",
        "description": "A page of permissions with totals (`include_totals=true`).",
        "required": [
          "start",
          "limit",
          "length",
          "total",
          "permissions"
        ],
        "properties": {
          "start": {
            "type": "integer",
            "minimum": 0,
            "description": "Index of the first item (page × per_page)."
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "description": "per_page."
          },
          "length": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in this page."
          },
          "total": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in all pages."
          },
          "permissions": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Permission"
            }
          }
        }
      },
      "PermissionList": {
        "description": "A bare array of permissions, or with `include_totals=true` the page wrapper.",
        "oneOf": [
          {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/Permission"
            }
          },
          {
            "$ref": "#/components/schemas/PermissionPage"
          }
        ]
      },
      "LogEventPage": {
        "type": "object",
        "description": "A page of logs with totals (`include_totals=true`).",
        "required": [
          "start",
          "limit",
          "length",
          "total",
          "logs"
        ],
        "properties": {
          "start": {
            "type": "integer",
            "minimum": 0,
            "description": "Index of the first item (page × per_page)."
          },
          "limit": {
            "type": "integer",
            "minimum": 1,
            "maximum": 100,
            "description": "per_page."
          },
          "length": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in this page."
          },
          "total": {
            "type": "integer",
            "minimum": 0,
            "description": "Items in all pages."
          },
          "logs": {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/LogEvent"
            }
          }
        }
      },
      "LogEventList": {
        "description": "A bare array of logs, or with `include_totals=true` the page wrapper.",
        "oneOf": [
          {
            "type": "array",
            "items": {
              "$ref": "#/components/schemas/LogEvent"
            }
          },
          {
            "$ref": "#/components/schemas/LogEventPage"
          }
        ]
      },
      "TokenRequest": {
        "type": "object",
        "description": "Token request parameters (RFC 6749 §4). Unknown parameters are ignored; a repeated form parameter is refused (`invalid_request`).",
        "required": [
          "grant_type"
        ],
        "properties": {
          "grant_type": {
            "type": "string",
            "description": "`client_credentials`, `authorization_code`, `refresh_token`, `urn:openid:params:grant-type:ciba` or `urn:ietf:params:oauth:grant-type:token-exchange` (as listed in discovery's `grant_types_supported`).",
            "examples": [
              "client_credentials"
            ]
          },
          "client_id": {
            "type": "string"
          },
          "client_secret": {
            "type": "string",
            "description": "`client_secret_post`."
          },
          "client_assertion": {
            "type": "string",
            "description": "`private_key_jwt` (RFC 7523)."
          },
          "client_assertion_type": {
            "type": "string",
            "const": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
          },
          "audience": {
            "type": "string",
            "description": "The API identifier (required for `client_credentials`)."
          },
          "scope": {
            "type": "string",
            "description": "Space-separated."
          },
          "code": {
            "type": "string"
          },
          "redirect_uri": {
            "type": "string"
          },
          "code_verifier": {
            "type": "string",
            "pattern": "^[A-Za-z0-9._~-]{43,128}$"
          },
          "refresh_token": {
            "type": "string"
          },
          "auth_req_id": {
            "type": "string"
          },
          "subject_token": {
            "type": "string"
          },
          "subject_token_type": {
            "type": "string"
          }
        }
      },
      "TokenRequestJSON": {
        "type": "object",
        "description": "The same parameters as a JSON object; `null` values and empty strings count as absent.",
        "required": [
          "grant_type"
        ],
        "properties": {
          "grant_type": {
            "type": [
              "string",
              "null"
            ],
            "description": "`client_credentials`, `authorization_code`, `refresh_token`, `urn:openid:params:grant-type:ciba` or `urn:ietf:params:oauth:grant-type:token-exchange` (as listed in discovery's `grant_types_supported`).",
            "examples": [
              "client_credentials"
            ]
          },
          "client_id": {
            "type": [
              "string",
              "null"
            ]
          },
          "client_secret": {
            "type": [
              "string",
              "null"
            ],
            "description": "`client_secret_post`."
          },
          "client_assertion": {
            "type": [
              "string",
              "null"
            ],
            "description": "`private_key_jwt` (RFC 7523)."
          },
          "client_assertion_type": {
            "type": [
              "string",
              "null"
            ],
            "const": "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
          },
          "audience": {
            "type": [
              "string",
              "null"
            ],
            "description": "The API identifier (required for `client_credentials`)."
          },
          "scope": {
            "type": [
              "string",
              "null"
            ],
            "description": "Space-separated."
          },
          "code": {
            "type": [
              "string",
              "null"
            ]
          },
          "redirect_uri": {
            "type": [
              "string",
              "null"
            ]
          },
          "code_verifier": {
            "type": [
              "string",
              "null"
            ],
            "pattern": "^[A-Za-z0-9._~-]{43,128}$"
          },
          "refresh_token": {
            "type": [
              "string",
              "null"
            ]
          },
          "auth_req_id": {
            "type": [
              "string",
              "null"
            ]
          },
          "subject_token": {
            "type": [
              "string",
              "null"
            ]
          },
          "subject_token_type": {
            "type": [
              "string",
              "null"
            ]
          }
        }
      },
      "TokenResponse": {
        "type": "object",
        "description": "A successful token response (RFC 6749 §5.1).",
        "required": [
          "access_token",
          "token_type",
          "expires_in"
        ],
        "properties": {
          "access_token": {
            "type": "string",
            "description": "A JWT (`typ: at+jwt`, RFC 9068), or a session transfer token with `token_type: N_A`."
          },
          "token_type": {
            "type": "string",
            "enum": [
              "Bearer",
              "N_A"
            ]
          },
          "expires_in": {
            "type": "integer",
            "minimum": 1,
            "description": "Seconds."
          },
          "scope": {
            "type": "string",
            "description": "The granted scopes, space-separated."
          },
          "id_token": {
            "type": "string",
            "description": "With `openid`."
          },
          "refresh_token": {
            "type": "string",
            "description": "With `offline_access`, when allowed."
          },
          "issued_token_type": {
            "type": "string",
            "description": "Token exchange (RFC 8693)."
          },
          "authorization_details": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "type"
              ]
            },
            "description": "As requested (RFC 9396)."
          }
        }
      },
      "IntrospectionRequest": {
        "type": "object",
        "description": "RFC 7662 §2.1, plus the client authentication parameters of `TokenRequest` (`client_id`, `client_secret`, `client_assertion`, `client_assertion_type`).",
        "required": [
          "token"
        ],
        "properties": {
          "token": {
            "type": "string"
          },
          "token_type_hint": {
            "type": "string",
            "enum": [
              "access_token",
              "refresh_token"
            ]
          }
        },
        "additionalProperties": {
          "type": "string"
        }
      },
      "IntrospectionResponse": {
        "type": "object",
        "description": "RFC 7662 §2.2: `{\"active\": false}` alone, or an active token's members.",
        "required": [
          "active"
        ],
        "properties": {
          "active": {
            "type": "boolean"
          },
          "scope": {
            "type": "string"
          },
          "client_id": {
            "type": "string"
          },
          "sub": {
            "type": "string"
          },
          "aud": {
            "oneOf": [
              {
                "type": "string"
              },
              {
                "type": "array",
                "items": {
                  "type": "string"
                }
              }
            ]
          },
          "iss": {
            "type": "string",
            "format": "uri"
          },
          "exp": {
            "type": "integer"
          },
          "iat": {
            "type": "integer"
          },
          "token_type": {
            "type": "string",
            "enum": [
              "Bearer",
              "refresh_token"
            ]
          },
          "authorization_details": {
            "type": "array",
            "items": {
              "type": "object",
              "required": [
                "type"
              ]
            }
          }
        }
      },
      "OpenIDConfiguration": {
        "type": "object",
        "description": "OpenID Connect Discovery 1.0 / RFC 8414 metadata.",
        "required": [
          "issuer",
          "token_endpoint",
          "jwks_uri",
          "grant_types_supported",
          "response_types_supported",
          "subject_types_supported",
          "token_endpoint_auth_methods_supported",
          "id_token_signing_alg_values_supported",
          "scopes_supported",
          "claims_supported"
        ],
        "properties": {
          "issuer": {
            "type": "string",
            "format": "uri",
            "pattern": "/$",
            "description": "Ends with a slash."
          },
          "authorization_endpoint": {
            "type": "string",
            "format": "uri"
          },
          "token_endpoint": {
            "type": "string",
            "format": "uri"
          },
          "userinfo_endpoint": {
            "type": "string",
            "format": "uri"
          },
          "jwks_uri": {
            "type": "string",
            "format": "uri"
          },
          "revocation_endpoint": {
            "type": "string",
            "format": "uri"
          },
          "end_session_endpoint": {
            "type": "string",
            "format": "uri"
          },
          "introspection_endpoint": {
            "type": "string",
            "format": "uri"
          },
          "request_parameter_supported": {
            "type": "boolean",
            "const": false
          },
          "request_uri_parameter_supported": {
            "type": "boolean",
            "const": false
          },
          "acr_values_supported": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "backchannel_authentication_endpoint": {
            "type": "string",
            "format": "uri"
          },
          "backchannel_token_delivery_modes_supported": {
            "type": "array",
            "items": {
              "type": "string",
              "enum": [
                "poll",
                "ping"
              ]
            }
          },
          "backchannel_user_code_parameter_supported": {
            "type": "boolean"
          },
          "grant_types_supported": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "response_types_supported": {
            "type": "array",
            "items": {
              "type": "string",
              "const": "code"
            }
          },
          "response_modes_supported": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "code_challenge_methods_supported": {
            "type": "array",
            "items": {
              "type": "string",
              "const": "S256"
            }
          },
          "token_endpoint_auth_methods_supported": {
            "type": "array",
            "items": {
              "type": "string",
              "enum": [
                "client_secret_basic",
                "client_secret_post",
                "private_key_jwt",
                "none"
              ]
            }
          },
          "token_endpoint_auth_signing_alg_values_supported": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "authorization_details_types_supported": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "scopes_supported": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "claims_supported": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "subject_types_supported": {
            "type": "array",
            "items": {
              "type": "string",
              "const": "public"
            }
          },
          "id_token_signing_alg_values_supported": {
            "type": "array",
            "items": {
              "type": "string",
              "enum": [
                "RS256",
                "ES256",
                "PS256",
                "EdDSA"
              ]
            }
          }
        }
      },
      "HealthStatus": {
        "type": "object",
        "required": [
          "status"
        ],
        "properties": {
          "status": {
            "type": "string",
            "enum": [
              "ok",
              "ready",
              "database unavailable"
            ]
          }
        }
      },
      "OpenAPIDocument": {
        "type": "object",
        "required": [
          "openapi",
          "info",
          "paths"
        ],
        "properties": {
          "openapi": {
            "type": "string",
            "pattern": "^3\\.1\\.\\d+$"
          },
          "info": {
            "type": "object"
          },
          "paths": {
            "type": "object"
          }
        },
        "additionalProperties": true
      }
    },
    "responses": {
      "InvalidBody": {
        "description": "The body is not a JSON object, has an unknown property (named in `message`), or a property of the wrong type or value.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 400
                },
                "error": {
                  "const": "Bad Request"
                },
                "errorCode": {
                  "const": "invalid_body"
                }
              }
            }
          }
        }
      },
      "InvalidQuery": {
        "description": "A query parameter is malformed or out of range (`per_page` ≤ 100, `page` ≥ 0, `sort`, `q`).",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 400
                },
                "error": {
                  "const": "Bad Request"
                },
                "errorCode": {
                  "const": "invalid_query_string"
                }
              }
            }
          }
        }
      },
      "Unauthorized": {
        "description": "The Bearer token is missing, malformed, not signed by a published key, for another audience, or expired.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 401
                },
                "error": {
                  "const": "Unauthorized"
                },
                "errorCode": {
                  "const": "invalid_token"
                }
              }
            }
          }
        }
      },
      "Forbidden": {
        "description": "The token lacks the scope this operation needs.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 403
                },
                "error": {
                  "const": "Forbidden"
                },
                "errorCode": {
                  "const": "insufficient_scope"
                }
              }
            }
          }
        }
      },
      "ForbiddenSystem": {
        "description": "The token lacks the scope (`insufficient_scope`), or the object is the system API, which cannot be changed or deleted (`operation_not_allowed`).",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 403
                },
                "error": {
                  "const": "Forbidden"
                },
                "errorCode": {
                  "enum": [
                    "insufficient_scope",
                    "operation_not_allowed"
                  ]
                }
              }
            }
          }
        }
      },
      "Conflict": {
        "description": "The object conflicts with an existing one (or changed meanwhile).",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 409
                },
                "error": {
                  "const": "Conflict"
                },
                "errorCode": {
                  "const": "conflict"
                }
              }
            }
          }
        }
      },
      "PayloadTooLarge": {
        "description": "The body is larger than 64 KiB.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 413
                },
                "error": {
                  "const": "Payload Too Large"
                },
                "errorCode": {
                  "const": "payload_too_large"
                }
              }
            }
          }
        }
      },
      "ManagementServerError": {
        "description": "An unexpected failure (e.g. the database is unreachable); never a stack trace.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 500
                },
                "error": {
                  "const": "Internal Server Error"
                },
                "errorCode": {
                  "const": "server_error"
                }
              }
            }
          }
        }
      },
      "NotFoundClient": {
        "description": "No client has this id.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 404
                },
                "error": {
                  "const": "Not Found"
                },
                "errorCode": {
                  "const": "inexistent_client"
                }
              }
            }
          }
        }
      },
      "NotFoundResourceServer": {
        "description": "No resource server has this id.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 404
                },
                "error": {
                  "const": "Not Found"
                },
                "errorCode": {
                  "const": "inexistent_resource_server"
                }
              }
            }
          }
        }
      },
      "NotFoundClientGrant": {
        "description": "No client grant has this id.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 404
                },
                "error": {
                  "const": "Not Found"
                },
                "errorCode": {
                  "const": "inexistent_client_grant"
                }
              }
            }
          }
        }
      },
      "NotFoundUser": {
        "description": "No user has this id.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 404
                },
                "error": {
                  "const": "Not Found"
                },
                "errorCode": {
                  "const": "inexistent_user"
                }
              }
            }
          }
        }
      },
      "NotFoundRole": {
        "description": "No role has this id.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 404
                },
                "error": {
                  "const": "Not Found"
                },
                "errorCode": {
                  "const": "inexistent_role"
                }
              }
            }
          }
        }
      },
      "NotFoundPostLoginRule": {
        "description": "No post-login rule has this id.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 404
                },
                "error": {
                  "const": "Not Found"
                },
                "errorCode": {
                  "const": "inexistent_post_login_rule"
                }
              }
            }
          }
        }
      },
      "NotFoundLog": {
        "description": "No log event has this id.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 404
                },
                "error": {
                  "const": "Not Found"
                },
                "errorCode": {
                  "const": "inexistent_log"
                }
              }
            }
          }
        }
      },
      "NotFoundKey": {
        "description": "No signing key has this id.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 404
                },
                "error": {
                  "const": "Not Found"
                },
                "errorCode": {
                  "const": "inexistent_key"
                }
              }
            }
          }
        }
      },
      "NotFoundEnrollment": {
        "description": "No enrolment has this id.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 404
                },
                "error": {
                  "const": "Not Found"
                },
                "errorCode": {
                  "const": "inexistent_enrollment"
                }
              }
            }
          }
        }
      },
      "DeviceInvalidBody": {
        "description": "The body is not a JSON object, or a field is missing or of the wrong type or value.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 400
                },
                "error": {
                  "const": "Bad Request"
                },
                "errorCode": {
                  "const": "invalid_body"
                }
              }
            }
          }
        }
      },
      "DeviceUnauthorized": {
        "description": "The `Authorization` header is missing or not of the operation's form, or its credential does not verify: an unknown device-account token, a device JWT, DPoP proof or challenge response that is forged, expired, for another device, audience or URL, or replayed, a transaction token never issued.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 401
                },
                "error": {
                  "const": "Unauthorized"
                },
                "errorCode": {
                  "const": "invalid_token"
                }
              }
            }
          }
        }
      },
      "EnrollmentTransactionNotFound": {
        "description": "The ticket is unknown, already used or expired.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 404
                },
                "error": {
                  "const": "Not Found"
                },
                "errorCode": {
                  "const": "enrollment_transaction_not_found"
                }
              }
            }
          }
        }
      },
      "DeviceAccountNotFound": {
        "description": "The enrolment named by the path is gone (unenrolled, or deleted through the Management API).",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 404
                },
                "error": {
                  "const": "Not Found"
                },
                "errorCode": {
                  "const": "device_account_not_found"
                }
              }
            }
          }
        }
      },
      "TransactionNotFound": {
        "description": "`login_transaction_not_found`: the transaction's request was already answered (through this or another device, or the e-mail page); `device_account_not_found`: the device was unenrolled.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 404
                },
                "error": {
                  "const": "Not Found"
                },
                "errorCode": {
                  "enum": [
                    "login_transaction_not_found",
                    "device_account_not_found"
                  ]
                }
              }
            }
          }
        }
      },
      "ConsentNotFound": {
        "description": "`consent_not_found`: an unknown consent, or one not linked to this transaction; `login_transaction_not_found`: the request was already answered; `device_account_not_found`: the device was unenrolled.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 404
                },
                "error": {
                  "const": "Not Found"
                },
                "errorCode": {
                  "enum": [
                    "consent_not_found",
                    "login_transaction_not_found",
                    "device_account_not_found"
                  ]
                }
              }
            }
          }
        }
      },
      "AlreadyEnrolled": {
        "description": "The user already has a device with this `identifier`.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 409
                },
                "error": {
                  "const": "Conflict"
                },
                "errorCode": {
                  "const": "already_enrolled"
                }
              }
            }
          }
        }
      },
      "TransactionExpired": {
        "description": "The request expired.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/ManagementError"
                }
              ],
              "properties": {
                "statusCode": {
                  "const": 410
                },
                "error": {
                  "const": "Gone"
                },
                "errorCode": {
                  "const": "transaction_expired"
                }
              }
            }
          }
        }
      },
      "TokenBadRequest": {
        "description": "A request error: a missing or malformed parameter, a wrong content type or a repeated form parameter (`invalid_request`); a grant the server does not know (`unsupported_grant_type`) or the client may not use (`unauthorized_client`); a bad code, refresh token or `auth_req_id` (`invalid_grant`); a scope outside what was granted (`invalid_scope`); CIBA polling states (`authorization_pending`, `slow_down` with `interval` and `Retry-After`, `access_denied`, `expired_token`).",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/OAuthError"
                }
              ],
              "properties": {
                "error": {
                  "enum": [
                    "invalid_request",
                    "invalid_grant",
                    "unauthorized_client",
                    "unsupported_grant_type",
                    "invalid_scope",
                    "authorization_pending",
                    "slow_down",
                    "access_denied",
                    "expired_token",
                    "invalid_authorization_details",
                    "unsupported_token_type"
                  ]
                }
              }
            }
          }
        },
        "headers": {
          "Cache-Control": {
            "required": true,
            "description": "`no-store` (RFC 6749 §5.1).",
            "schema": {
              "type": "string",
              "const": "no-store"
            }
          },
          "Retry-After": {
            "description": "With `slow_down`: seconds to wait.",
            "schema": {
              "type": "integer"
            }
          }
        }
      },
      "TokenUnauthorized": {
        "description": "Client authentication failed (unknown client, wrong secret, bad assertion).",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/OAuthError"
                }
              ],
              "properties": {
                "error": {
                  "enum": [
                    "invalid_client"
                  ]
                }
              }
            }
          }
        },
        "headers": {
          "Cache-Control": {
            "required": true,
            "description": "`no-store` (RFC 6749 §5.1).",
            "schema": {
              "type": "string",
              "const": "no-store"
            }
          },
          "WWW-Authenticate": {
            "description": "`Basic realm=…` when the client sent HTTP Basic credentials.",
            "schema": {
              "type": "string"
            }
          }
        }
      },
      "TokenForbidden": {
        "description": "`client_credentials`: the client has no client grant for the requested API.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/OAuthError"
                }
              ],
              "properties": {
                "error": {
                  "enum": [
                    "access_denied"
                  ]
                }
              }
            }
          }
        },
        "headers": {
          "Cache-Control": {
            "required": true,
            "description": "`no-store` (RFC 6749 §5.1).",
            "schema": {
              "type": "string",
              "const": "no-store"
            }
          }
        }
      },
      "TokenPayloadTooLarge": {
        "description": "The body is larger than 64 KiB.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/OAuthError"
                }
              ],
              "properties": {
                "error": {
                  "enum": [
                    "invalid_request"
                  ]
                }
              }
            }
          }
        },
        "headers": {
          "Cache-Control": {
            "required": true,
            "description": "`no-store` (RFC 6749 §5.1).",
            "schema": {
              "type": "string",
              "const": "no-store"
            }
          }
        }
      },
      "TokenTooManyRequests": {
        "description": "Rate limited.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/OAuthError"
                }
              ],
              "properties": {
                "error": {
                  "enum": [
                    "too_many_requests"
                  ]
                }
              }
            }
          }
        },
        "headers": {
          "Cache-Control": {
            "required": true,
            "description": "`no-store` (RFC 6749 §5.1).",
            "schema": {
              "type": "string",
              "const": "no-store"
            }
          },
          "Retry-After": {
            "description": "Seconds to wait.",
            "schema": {
              "type": "integer"
            }
          }
        }
      },
      "TokenServerError": {
        "description": "An unexpected failure; never a stack trace.",
        "content": {
          "application/json": {
            "schema": {
              "allOf": [
                {
                  "$ref": "#/components/schemas/OAuthError"
                }
              ],
              "properties": {
                "error": {
                  "enum": [
                    "server_error"
                  ]
                }
              }
            }
          }
        },
        "headers": {
          "Cache-Control": {
            "required": true,
            "description": "`no-store` (RFC 6749 §5.1).",
            "schema": {
              "type": "string",
              "const": "no-store"
            }
          }
        }
      }
    },
    "parameters": {
      "page": {
        "name": "page",
        "in": "query",
        "description": "Page number, from 0. A page past the end is empty.",
        "schema": {
          "type": "integer",
          "minimum": 0,
          "maximum": 1000000,
          "default": 0
        }
      },
      "per_page": {
        "name": "per_page",
        "in": "query",
        "description": "Items per page.",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 50
        }
      },
      "include_totals": {
        "name": "include_totals",
        "in": "query",
        "description": "`true` wraps the page as `{start, limit, length, total, <items>}`; otherwise the answer is a bare array.",
        "schema": {
          "type": "boolean",
          "default": false
        }
      },
      "from": {
        "name": "from",
        "in": "query",
        "description": "Checkpoint paging: start after this checkpoint.",
        "schema": {
          "type": "string"
        }
      },
      "take": {
        "name": "take",
        "in": "query",
        "description": "Checkpoint paging: at most this many items.",
        "schema": {
          "type": "integer",
          "minimum": 1,
          "maximum": 100,
          "default": 50
        }
      }
    },
    "securitySchemes": {
      "bearerAuth": {
        "type": "http",
        "scheme": "bearer",
        "bearerFormat": "JWT",
        "description": "A Management API access token: `POST /oauth/token` with `grant_type=client_credentials` and `audience={issuer}api/v2/`. Each operation lists the scope it needs (`x-scopes` names them all); a missing scope is 403 `insufficient_scope`, a bad or expired token 401 `invalid_token`.",
        "x-scopes": {
          "read:clients": "Read clients",
          "create:clients": "Create clients",
          "update:clients": "Update clients",
          "delete:clients": "Delete clients",
          "read:client_grants": "Read client grants",
          "create:client_grants": "Create client grants",
          "update:client_grants": "Update client grants",
          "delete:client_grants": "Delete client grants",
          "read:resource_servers": "Read resource servers (APIs)",
          "create:resource_servers": "Create resource servers (APIs)",
          "update:resource_servers": "Update resource servers (APIs)",
          "delete:resource_servers": "Delete resource servers (APIs)",
          "read:users": "Read users",
          "create:users": "Create users",
          "update:users": "Update users",
          "delete:users": "Delete users",
          "read:roles": "Read roles",
          "create:roles": "Create roles",
          "update:roles": "Update roles",
          "delete:roles": "Delete roles",
          "read:post_login_rules": "Read post-login rules",
          "create:post_login_rules": "Create post-login rules",
          "update:post_login_rules": "Update post-login rules",
          "delete:post_login_rules": "Delete post-login rules",
          "read:logs": "Read the event log",
          "create:guardian_enrollment_tickets": "Create authenticator enrollment tickets",
          "read:guardian_enrollments": "Read authenticator enrollments",
          "delete:guardian_enrollments": "Delete authenticator enrollments",
          "read:signing_keys": "Read signing keys",
          "create:signing_keys": "Rotate signing keys",
          "update:signing_keys": "Revoke signing keys"
        }
      },
      "clientSecretBasic": {
        "type": "http",
        "scheme": "basic",
        "description": "`client_secret_basic`: client_id and client_secret, form-urlencoded, as HTTP Basic credentials."
      },
      "enrollmentTicket": {
        "type": "http",
        "scheme": "Ticket",
        "description": "`Authorization: Ticket id=\"{ticket_id}\"`: an enrolment ticket of `POST /api/v2/guardian/enrollments/ticket`."
      },
      "deviceAccount": {
        "type": "http",
        "scheme": "bearer",
        "description": "`Authorization: Bearer …` with the device-account `token` of the enrolment response, or an RS256 JWT signed by the enrolled device key with `iss` = the enrolment id, `sub` = the user id, `aud` = `{issuer}appliance-mfa/api/device-accounts`, `iat` and `exp` (at most 2 hours later)."
      },
      "transactionToken": {
        "type": "http",
        "scheme": "bearer",
        "description": "`Authorization: Bearer {txtkn}`: the transaction token of a notification or of the pending transactions list."
      },
      "mfaDPoP": {
        "type": "http",
        "scheme": "MFA-DPoP",
        "description": "`Authorization: MFA-DPoP {txtkn}`: the transaction token, bound to the device key by the `MFA-DPoP` proof header."
      },
      "mfaDPoPProof": {
        "type": "apiKey",
        "in": "header",
        "name": "MFA-DPoP",
        "description": "A DPoP proof JWT (RFC 9449 §4.2) signed by the device key, with its public JWK in the header, for this URL (`htu`), `htm` `GET` and the transaction token (`ath`)."
      }
    }
  }
}
"""#
}
