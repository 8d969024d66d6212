import { render, screen } from "@testing-library/react";
import * as React from "react";
import { createContext, createRef, useContext } from "react";
// eslint-disable-next-line no-restricted-syntax -- the test compares the two: "react" must be preact/compat here
import * as compat from "preact/compat";
import { describe, expect, it } from "vitest";
import { TextField } from "@/ui/text-field";

/**
 * What the client takes from React 19 and gets from Preact 11 (docs/decisions/0076): the client's tests
 * run on preact/compat as the built app does, and these are the habits it relies on.
 */
describe("the client's runtime", () => {
  it("is preact/compat under the name react, as in the build and the dev server", () => {
    expect(React.useState).toBe(compat.useState);
    expect(React.createElement).toBe(compat.createElement);
  });

  it("gives a function component its ref as a prop, as the form fields take it", () => {
    const ref = createRef<HTMLInputElement>();
    render(<TextField name="title" label="Title" ref={ref} />);
    expect(ref.current).toBe(screen.getByLabelText("Title"));
  });

  it("renders a context as its own provider", () => {
    const Shelf = createContext("none");
    const ShelfName = () => <p>{useContext(Shelf)}</p>;
    render(
      <Shelf value="poetry">
        <ShelfName />
      </Shelf>,
    );
    expect(screen.getByText("poetry")).toBeInTheDocument();
  });
});
