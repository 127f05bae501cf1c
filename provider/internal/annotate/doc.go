// Package annotate writes the pulumi-go-provider Annotate methods of a component package from its Go doc
// comments, so the Go comments stay the single source of the schema's descriptions.
package annotate
