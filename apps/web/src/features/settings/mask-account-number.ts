/** '•••• 6789': enough to recognise the account, not enough to copy it off a shared screen. */
export function maskAccountNumber(accountNumber: string): string {
  return `•••• ${accountNumber.slice(-4)}`;
}
