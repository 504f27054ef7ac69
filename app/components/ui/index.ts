export { Alert, Spinner } from "./alert";
export { Badge, type BadgeTone } from "./badge";
export { Button, ButtonLink, buttonClasses } from "./button";
export { Card, EmptyState, StatCard, TitledCard } from "./card";
export { CheckboxField, SelectField, TextAreaField, TextField } from "./field";
export { Modal } from "./modal";
export { Pagination, pageHref } from "./pagination";
export { ProgressBar, progressColour } from "./progress-bar";
export { SubmitButton } from "./submit-button";
