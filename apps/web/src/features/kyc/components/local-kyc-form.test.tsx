import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toast } from '../../../lib/toast';
import { KYC_MAX_IMAGE_BYTES } from '@offzero/shared/api/kyc';
import { fakeSessionToken, jsonResponse, renderWithProviders } from '../../../test/test-utils';
import { saveCsrfToken, saveSessionToken } from '../../../lib/session-storage';
import {
  DOCUMENT_REQUIRED_MESSAGE,
  DOCUMENT_SIZE_MESSAGE,
  DOCUMENT_TYPE_MESSAGE,
  validateLocalKyc,
  type LocalKycValues,
} from './local-kyc-form';
import { KycModal } from './kyc-modal';

const png = () =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])], 'id.png', {
    type: 'image/png',
  });

const valid: LocalKycValues = {
  legalName: 'Ada Lovelace',
  dateOfBirth: '1990-12-10',
  country: 'US',
  residenceState: 'CA',
  documentType: 'passport',
  documentNumber: 'X1234567',
};

describe('validateLocalKyc', () => {
  it('accepts a complete form with an image', () => {
    const file = png();
    expect(validateLocalKyc(valid, file)).toEqual({ ok: true, form: valid, document: file });
  });

  it('reports every problem at once, with the shared schema messages', () => {
    const result = validateLocalKyc(
      {
        legalName: ' ',
        dateOfBirth: '',
        country: 'US',
        residenceState: '',
        documentType: '',
        documentNumber: 'x',
      },
      null,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        legalName: 'Enter your full legal name.',
        dateOfBirth: 'Enter your date of birth.',
        documentType: 'Choose a document type.',
        documentNumber: 'Enter the document number: 4 to 30 letters, digits or dashes.',
        document: DOCUMENT_REQUIRED_MESSAGE,
      },
    });
  });

  it('refuses minors, impossible dates and a missing country', () => {
    const year = new Date().getFullYear();
    expect(validateLocalKyc({ ...valid, dateOfBirth: `${year - 10}-01-01` }, png())).toMatchObject({
      errors: { dateOfBirth: 'You must be at least 18 years old.' },
    });
    expect(validateLocalKyc({ ...valid, dateOfBirth: '1990-02-30' }, png())).toMatchObject({ ok: false });
    expect(validateLocalKyc({ ...valid, country: '' }, png())).toMatchObject({
      errors: { country: 'Choose your country.' },
    });
  });

  it('checks the image type and size', () => {
    const pdf = new File(['%PDF'], 'id.pdf', { type: 'application/pdf' });
    expect(validateLocalKyc(valid, pdf)).toEqual({ ok: false, errors: { document: DOCUMENT_TYPE_MESSAGE } });
    const huge = new File([new Uint8Array(KYC_MAX_IMAGE_BYTES + 1)], 'id.jpg', { type: 'image/jpeg' });
    expect(validateLocalKyc(valid, huge)).toEqual({ ok: false, errors: { document: DOCUMENT_SIZE_MESSAGE } });
  });
});

describe('KycModal with the demo verification form', () => {
  let fetchMock: ReturnType<typeof vi.fn<(input: string, init?: RequestInit) => Promise<Response>>>;

  beforeEach(() => {
    fetchMock = vi.fn<(input: string, init?: RequestInit) => Promise<Response>>(async (input) => {
      if (input === '/api/kyc/generate/token') return jsonResponse({ provider: 'local', token: null });
      if (input === '/api/kyc/local/submit') {
        return jsonResponse({
          message: 'Your identity verification is under review.',
          kyc: { _id: 'kyc-1', status: 'YELLOW', reviewNote: null },
        });
      }
      if (input.startsWith('/api/kyc/')) return jsonResponse({ kyc: null });
      return jsonResponse({ message: 'unexpected' }, 404);
    });
    vi.stubGlobal('fetch', fetchMock);
    saveSessionToken(fakeSessionToken('user-1'));
    saveCsrfToken('csrf-1');
    vi.spyOn(toast, 'success');
    vi.spyOn(toast, 'error');
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  async function openModal(onClose = vi.fn()) {
    renderWithProviders(<KycModal open onClose={onClose} defaultLegalName="Ada Lovelace" />);
    const dialog = screen.getByRole('dialog', { name: 'Verify your identity' });
    await within(dialog).findByLabelText('Full legal name');
    return { dialog, onClose, user: userEvent.setup({ applyAccept: false }) };
  }

  it('shows the field errors and sends nothing when the form is incomplete', async () => {
    const { dialog, user } = await openModal();
    expect(within(dialog).getByLabelText('Full legal name')).toHaveValue('Ada Lovelace');
    expect(within(dialog).getByLabelText('Country')).toHaveValue('US');

    await user.click(within(dialog).getByRole('button', { name: 'Submit for review' }));
    expect(within(dialog).getByText('Enter your date of birth.')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose a document type.')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Enter the document number: 4 to 30 letters, digits or dashes.'),
    ).toBeInTheDocument();
    expect(within(dialog).getByText(DOCUMENT_REQUIRED_MESSAGE)).toBeInTheDocument();
    expect(toast.error).toHaveBeenCalledWith('Enter your date of birth.');
    expect(fetchMock.mock.calls.some(([url]) => url === '/api/kyc/local/submit')).toBe(false);
  });

  it('refuses a file that is not a JPEG, PNG or WebP image as soon as it is chosen', async () => {
    const { dialog, user } = await openModal();
    await user.upload(
      within(dialog).getByLabelText('Document image'),
      new File(['%PDF'], 'id.pdf', { type: 'application/pdf' }),
    );
    expect(within(dialog).getByText(DOCUMENT_TYPE_MESSAGE)).toBeInTheDocument();
  });

  it('sends the form as multipart data with the image, then closes', async () => {
    const { dialog, user, onClose } = await openModal();
    await user.type(within(dialog).getByLabelText('Date of birth'), '1990-12-10');
    await user.selectOptions(within(dialog).getByLabelText('Country'), 'GB');
    await user.selectOptions(within(dialog).getByLabelText('Document type'), 'drivers_license');
    await user.type(within(dialog).getByLabelText('Document number'), 'D-123456');
    const image = png();
    await user.upload(within(dialog).getByLabelText('Document image'), image);
    expect(within(dialog).getByText('id.png')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: 'Submit for review' }));

    await vi.waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(toast.success).toHaveBeenCalledWith('Your identity verification is under review.');
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/kyc/local/submit');
    const form = call?.[1]?.body as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect(Object.fromEntries([...form.entries()].filter(([key]) => key !== 'document'))).toEqual({
      legalName: 'Ada Lovelace',
      dateOfBirth: '1990-12-10',
      country: 'GB',
      documentType: 'drivers_license',
      documentNumber: 'D-123456',
    });
    expect((form.get('document') as File).name).toBe('id.png');
    expect((call?.[1]?.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  });
});
